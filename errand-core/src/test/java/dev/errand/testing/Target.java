package dev.errand.testing;

import dev.errand.ClaimStrategies;
import dev.errand.spi.ClaimStrategy;
import dev.errand.testkit.TestDatabase;

/**
 * One place the contract suite runs: a real database and a claim strategy.
 *
 * @param database the database
 * @param optimistic whether to claim with the optimistic-version strategy instead of SKIP LOCKED
 */
public record Target(TestDatabase database, boolean optimistic) {

    /** The database with the default claim strategy. */
    public static Target of(TestDatabase database) {
        return new Target(database, false);
    }

    /** The claim strategy factory to configure. */
    public ClaimStrategy.Factory claimStrategy() {
        return optimistic ? ClaimStrategies.optimisticVersion() : ClaimStrategies.skipLocked();
    }

    @Override
    public String toString() {
        return database.displayName() + (optimistic ? " / optimistic-version claim" : " / skip-locked claim");
    }
}
