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

    /** Creates the pruner. */
    public HistoryPruner(Storage storage, AttemptHistory attempts) {
        this.storage = storage;
        this.attempts = attempts;
    }

    /** Deletes the attempts that ended more than {@code retention} ago; returns how many. */
    public int prune(Duration retention) throws SQLException {
        int pruned = attempts.pruneOlderThan(storage.transactions(), Micros.ofAge(retention));
        if (pruned > 0) {
            log.debug("Pruned {} attempts from the history", pruned);
        }
        return pruned;
    }
}
