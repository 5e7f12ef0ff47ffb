package dev.errand;

import dev.errand.internal.claim.BuiltInClaims;
import dev.errand.spi.ClaimStrategy;

/**
 * The claim strategies Errand ships, for {@link ErrandBuilder#claimStrategy}. Both meet the same
 * contract; the contract tests run each of them on every database. An application may also implement
 * {@link ClaimStrategy} itself.
 */
public final class ClaimStrategies {

    private ClaimStrategies() {}

    /**
     * The default: {@code FOR UPDATE SKIP LOCKED}, in one statement where the database has
     * UPDATE … RETURNING (PostgreSQL), else SELECT then UPDATE in one transaction.
     */
    public static ClaimStrategy.Factory skipLocked() {
        return BuiltInClaims.skipLocked();
    }

    /**
     * Optimistic: read candidates without locks, then claim each with
     * {@code UPDATE … WHERE id = ? AND version = ?}; a lost race moves on to the next candidate. For
     * databases or proxies without {@code SKIP LOCKED}.
     */
    public static ClaimStrategy.Factory optimisticVersion() {
        return BuiltInClaims.optimisticVersion();
    }
}
