package dev.errand.internal.engine;

import dev.errand.history.AttemptOutcome;
import dev.errand.internal.store.Expirations;
import dev.errand.internal.store.Storage;
import dev.errand.spi.ClaimedTask;
import dev.errand.task.FailureCause;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fails tasks that never ran, for a reason: their deadline passed, or the node they are pinned to stayed away
 * longer than their kind's pin policy allows. Both go the same way: a statement guarded on the task still
 * being pending (or waiting), so that a node that claims it meanwhile wins and only one node fails it, the
 * kind's failure callback, the attempt history, and the batch or workflow it belongs to moved on in the same
 * transaction.
 *
 * <p>The expiry sweep fails the tasks whose deadline passed before they ran: pending and waiting tasks past their own
 * deadline, and waiting tasks past the deadline of a condition still open. Each is failed in its own
 * transaction with its kind's failure callback, by a statement guarded on the task still being pending or
 * waiting, so that when several nodes sweep at once only one fails each task and runs its callback.
 * Claims leave out expired tasks meanwhile, so none starts after its deadline.
 */
final class Expirer {

    private static final Logger log = LoggerFactory.getLogger(Expirer.class);
    private static final int BATCH = 100;
    private static final int MAX_PER_SWEEP = 1_000;

    private final Storage storage;
    private final Stores stores;
    private final Expirations expirations;
    private final Kinds kinds;
    private final OutcomeWriter writer;

    Expirer(Stores stores, Expirations expirations, Kinds kinds, OutcomeWriter writer) {
        this.storage = stores.storage();
        this.stores = stores;
        this.expirations = expirations;
        this.kinds = kinds;
        this.writer = writer;
    }

    /**
     * Expires what is due now.
     *
     * @return how many tasks this node expired
     * @throws SQLException if the database cannot be read; the sweep runs again later
     */
    int sweep() throws SQLException {
        int expired = 0;
        boolean more = true;
        while (more && expired < MAX_PER_SWEEP) {
            List<Expirations.Expiring> due = storage.transactions().run("expiry", c -> {
                List<Expirations.Expiring> all = new ArrayList<>(expirations.dueTasks(c, BATCH));
                all.addAll(expirations.dueConditions(c, BATCH));
                return all;
            });
            int before = expired;
            for (Expirations.Expiring expiring : due) {
                if (expire(expiring)) {
                    expired++;
                }
            }
            // Stop when nothing was due, or when other nodes took everything this node saw.
            more = due.size() >= BATCH && expired > before;
        }
        if (expired > 0) {
            log.info("Expired {} tasks whose deadline passed before they ran", expired);
        }
        return expired;
    }

    /** Fails a pending task whose pinned node stayed away; returns whether this node failed it. */
    boolean failPinned(ClaimedTask task, FailureCause.PinnedNodeAbsent cause) {
        return writer.failBeforeRun(
                task,
                kinds.of(task),
                cause,
                AttemptOutcome.NODE_ABSENT,
                (c, error) -> expirations.failBeforeRun(c, task.id(), error));
    }

    private boolean expire(Expirations.Expiring expiring) {
        long id = expiring.task().id();
        FailureCause.Expired cause = new FailureCause.Expired(expiring.deadline(), expiring.condition());
        return writer.failBeforeRun(
                expiring.task(), kinds.of(expiring.task()), cause, AttemptOutcome.EXPIRED, (c, error) -> {
                    if (!expirations.failBeforeRun(c, id, error)) {
                        return false;
                    }
                    stores.events().forgetConditions(c, id);
                    return true;
                });
    }
}
