package dev.errand.internal.workflow;

import dev.errand.internal.store.Micros;
import dev.errand.internal.store.Storage;
import java.sql.SQLException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the rows of finished batches past {@code batchRetention}: the batch, its counters and its callbacks,
 * a few hundred batches per transaction. A batch goes only once every task is counted and no callback waits to
 * fire, so pruning never loses a callback; its tasks stay, for their own retention to prune.
 */
public final class BatchPruner {

    private static final Logger log = LoggerFactory.getLogger(BatchPruner.class);
    private static final int PER_TRANSACTION = 500;

    private final Storage storage;
    private final WorkflowStore workflows;

    /** Creates the pruner. */
    public BatchPruner(Storage storage, WorkflowStore workflows) {
        this.storage = storage;
        this.workflows = workflows;
    }

    /** Deletes the batches created more than {@code retention} ago; returns how many. */
    public int prune(Duration retention) throws SQLException {
        long retentionMicros = Micros.ofAge(retention);
        int pruned = 0;
        while (true) {
            int deleted = storage.transactions().run("prune batches", c -> {
                long[] ids = workflows.prunableBatches(c, retentionMicros, PER_TRANSACTION);
                return ids.length == 0 ? 0 : workflows.deleteBatches(c, ids);
            });
            pruned += deleted;
            if (deleted < PER_TRANSACTION) {
                break;
            }
        }
        if (pruned > 0) {
            log.debug("Pruned {} finished batches past their retention", pruned);
        }
        return pruned;
    }
}
