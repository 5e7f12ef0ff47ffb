package dev.errand.internal.event;

import dev.errand.internal.store.Micros;
import dev.errand.internal.store.Storage;
import java.sql.SQLException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Deletes premature events older than their retention, in one transaction. */
public final class PrematureEventPruner {

    private static final Logger log = LoggerFactory.getLogger(PrematureEventPruner.class);

    private final Storage storage;
    private final EventStore events;

    /** Creates the pruner. */
    public PrematureEventPruner(Storage storage, EventStore events) {
        this.storage = storage;
        this.events = events;
    }

    /** Deletes the premature events triggered more than {@code retention} ago; returns how many. */
    public int prune(Duration retention) throws SQLException {
        int pruned = storage.transactions()
                .run("prune premature events", c -> events.deletePrematureOlderThan(c, Micros.ofAge(retention)));
        if (pruned > 0) {
            log.info("Deleted {} premature events older than {}", pruned, retention);
        }
        return pruned;
    }
}
