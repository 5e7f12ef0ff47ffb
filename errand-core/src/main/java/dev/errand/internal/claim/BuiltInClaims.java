package dev.errand.internal.claim;

import dev.errand.spi.ClaimEnvironment;
import dev.errand.spi.ClaimStrategy;

/** Factories of the claim strategies Errand ships. */
public final class BuiltInClaims {

    private BuiltInClaims() {}

    /**
     * {@code FOR UPDATE SKIP LOCKED}: one statement where the database has UPDATE … RETURNING
     * (PostgreSQL), else SELECT then UPDATE in one transaction.
     */
    public static ClaimStrategy.Factory skipLocked() {
        return environment -> {
            DialectClaimEnvironment database = builtIn(environment);
            return database.dialect().supportsUpdateReturning()
                    ? new SkipLockedReturningClaim(database.dialect(), database.taskTable(), database.claimOrder())
                    : new SkipLockedSelectThenUpdateClaim(
                            database.dialect(), database.taskTable(), database.claimOrder());
        };
    }

    /** Optimistic: read candidates without locks, then take each with a version check. */
    public static ClaimStrategy.Factory optimisticVersion() {
        return environment -> {
            DialectClaimEnvironment database = builtIn(environment);
            return new OptimisticVersionClaim(database.dialect(), database.taskTable(), database.claimOrder());
        };
    }

    private static DialectClaimEnvironment builtIn(ClaimEnvironment environment) {
        if (environment instanceof DialectClaimEnvironment database) {
            return database;
        }
        throw new IllegalArgumentException("Errand's built-in claim strategies are created by Errand itself;"
                + " pass the factory to ErrandBuilder.claimStrategy instead of calling it");
    }
}
