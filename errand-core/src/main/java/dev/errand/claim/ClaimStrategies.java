package dev.errand.claim;

import dev.errand.store.Dialect;

/**
 * The claim strategies Errand ships, as factories for {@code ErrandBuilder.claimStrategy(...)}.
 * Both meet the same contract; the contract tests run each of them on every database.
 */
public final class ClaimStrategies {

    private ClaimStrategies() {}

    /** Builds a claim strategy for a dialect and a task table. */
    @FunctionalInterface
    public interface Factory {
        /** Creates the strategy. */
        ClaimStrategy create(Dialect dialect, String table);
    }

    /**
     * The default: {@code FOR UPDATE SKIP LOCKED}, in one statement where the database has
     * UPDATE … RETURNING (PostgreSQL), else SELECT then UPDATE in one transaction.
     */
    public static Factory skipLocked() {
        return (dialect, table) -> dialect.supportsUpdateReturning()
                ? new SkipLockedReturningClaim(dialect, table)
                : new SkipLockedSelectThenUpdateClaim(dialect, table);
    }

    /**
     * Optimistic: read candidates without locks, then claim each with
     * {@code UPDATE … WHERE id = ? AND version = ?}; a lost race moves on to the next candidate. For
     * databases or proxies without {@code SKIP LOCKED}.
     */
    public static Factory optimisticVersion() {
        return OptimisticVersionClaim::new;
    }
}
