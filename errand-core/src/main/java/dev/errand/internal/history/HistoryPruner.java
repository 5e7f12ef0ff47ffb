package dev.errand.internal.history;

import dev.errand.internal.store.Micros;
import dev.errand.internal.store.Storage;
import java.sql.SQLException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Deletes attempts past the history's retention, a batch per transaction, so that no statement runs long. */
public final class HistoryPruner {

    private static final Logger log = LoggerFactory.getLogger(HistoryPruner.class);

    private final Storage storage;
    private final AttemptHistory attempts;
    private final Duration retention;

    /** Creates the pruner; {@code retention} counts from each attempt's end. */
    public HistoryPruner(Storage storage, AttemptHistory attempts, Duration retention) {
        this.storage = storage;
        this.attempts = attempts;
        this.retention = retention;
    }

    /** Deletes what is past its retention now; returns how many attempts. */
    public int prune() throws SQLException {
        int pruned = attempts.pruneOlderThan(storage.transactions(), Micros.ofAge(retention));
        if (pruned > 0) {
            log.debug("Pruned {} attempts from the history", pruned);
        }
        return pruned;
    }
}
