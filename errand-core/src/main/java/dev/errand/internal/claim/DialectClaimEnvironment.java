package dev.errand.internal.claim;

import dev.errand.config.ClaimOrder;
import dev.errand.internal.store.Dialect;
import dev.errand.spi.ClaimEnvironment;

/**
 * The claim environment Errand hands to claim strategy factories. The built-in strategies read the
 * dialect from it; strategies of applications see only {@link ClaimEnvironment}.
 *
 * @param dialect the database's dialect
 * @param taskTable the task table's name
 * @param claimOrder the order to claim in
 */
public record DialectClaimEnvironment(Dialect dialect, String taskTable, ClaimOrder claimOrder)
        implements ClaimEnvironment {

    /** The environment of a node that claims in the default order. */
    public DialectClaimEnvironment(Dialect dialect, String taskTable) {
        this(dialect, taskTable, ClaimOrder.DUE_FIRST);
    }

    @Override
    public String dialectName() {
        return dialect.name();
    }

    @Override
    public String databaseTimePlusMicros() {
        return dialect.timePlusMicros();
    }
}
