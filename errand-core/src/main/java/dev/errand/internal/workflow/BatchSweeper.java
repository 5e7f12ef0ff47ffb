package dev.errand.internal.workflow;

import dev.errand.internal.store.Storage;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;

/**
 * Fires batch callbacks that concurrent completions hid from each other. Each transaction that counts
 * checks its batch, but two that finish the last tasks at once may each miss the other's uncommitted
 * count; a check after the commit and, should the node die in between, this sweep catch it. Firing stays
 * exactly once: the callback's row in {@code batch_fired} is unique.
 */
public final class BatchSweeper {

    private static final int BATCHES_PER_SWEEP = 100;

    private final Storage storage;
    private final WorkflowStore workflows;
    private final Finisher finisher;

    /** Creates the sweep on a node's storage, its batch statements and its finisher. */
    public BatchSweeper(Storage storage, WorkflowStore workflows, Finisher finisher) {
        this.storage = storage;
        this.workflows = workflows;
        this.finisher = finisher;
    }

    /**
     * Checks the batches that have a callback not fired yet.
     *
     * @return how many batches it checked
     * @throws SQLException if they cannot be listed; the sweep runs again later
     */
    public int sweep() throws SQLException {
        List<Long> batches = storage.transactions()
                .run("batch-sweep", c -> workflows.batchesWithUnfiredCallbacks(c, BATCHES_PER_SWEEP));
        finisher.recheck(new java.util.LinkedHashSet<>(batches));
        return batches.size();
    }

    /** Checks one batch now. */
    public void check(long batchId) {
        finisher.recheck(Set.of(batchId));
    }
}
