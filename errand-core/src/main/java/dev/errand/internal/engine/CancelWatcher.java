package dev.errand.internal.engine;

import dev.errand.internal.store.Storage;
import dev.errand.internal.workflow.Finish;
import dev.errand.internal.workflow.Finisher;
import dev.errand.task.TaskState;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers operators' cancel requests to the handlers that run on this node: with every heartbeat it
 * reads the requests of its running attempts, flags their contexts and interrupts their threads. With
 * every rescue sweep it honours the requests whose task went back to pending before its node saw them,
 * and deletes the requests of tasks that are over.
 */
final class CancelWatcher {

    private static final Logger log = LoggerFactory.getLogger(CancelWatcher.class);

    private final Storage storage;
    private final Stores stores;
    private final RunningAttempts running;
    private final Finisher finisher;

    CancelWatcher(Stores stores, RunningAttempts running) {
        this.storage = stores.storage();
        this.stores = stores;
        this.running = running;
        this.finisher = stores.finisher();
    }

    /** Reads the requests of this node's running attempts and delivers them. */
    void deliver() throws SQLException {
        long[] ids = running.ids();
        if (ids.length == 0) {
            return;
        }
        Set<Long> requested = storage.transactions()
                .run("read cancel requests", c -> storage.cancels().requestedAmong(c, ids));
        for (long id : requested) {
            if (running.cancel(id)) {
                log.info("Task {} was asked to cancel; its handler is flagged and interrupted", id);
            }
        }
    }

    /** Honours requests of tasks that are pending again, and deletes those of finished tasks. */
    void settle() throws SQLException {
        int cancelled;
        try (Finish finish = finisher.open()) {
            cancelled = storage.transactions().run("settle cancel requests", c -> {
                List<Long> ids = storage.cancels().lockRequestedUnstarted(c);
                int count = storage.cancels().settle(c);
                List<Finisher.Finished> linked = new ArrayList<>();
                for (long id : ids) {
                    stores.workflows()
                            .links(c, id)
                            .filter(links -> !links.isNone())
                            .ifPresent(links -> linked.add(new Finisher.Finished(id, links)));
                }
                finish.ended(c, linked, TaskState.CANCELLED);
                return count;
            });
        }
        if (cancelled > 0) {
            log.info("Cancelled {} tasks whose cancel request arrived after their attempt ended", cancelled);
        }
    }
}
