package dev.errand.internal.engine;

import dev.errand.config.TablePrefix;
import dev.errand.history.AttemptOutcome;
import dev.errand.internal.store.Expirations;
import dev.errand.internal.store.Storage;
import dev.errand.spi.ClaimedTask;
import dev.errand.task.FailureCause;

/**
 * Fails a pending task whose pinned node stayed away longer than its kind's pin policy allows, the way an
 * expired task fails: a statement guarded on the task still being pending (so a node that claims it
 * meanwhile wins), the kind's failure callback, the attempt history, and the batch or workflow it belongs
 * to moved on in the same transaction.
 */
final class PinFailer {

    private final Storage storage;
    private final Expirations statements;
    private final Kinds kinds;
    private final OutcomeWriter writer;

    PinFailer(Storage storage, TablePrefix tables, Kinds kinds, OutcomeWriter writer) {
        this.storage = storage;
        this.statements = new Expirations(storage.dialect(), tables);
        this.kinds = kinds;
        this.writer = writer;
    }

    /** Fails {@code task} with {@code cause}; returns whether this node failed it. */
    boolean fail(ClaimedTask task, FailureCause.PinnedNodeAbsent cause) {
        return writer.failBeforeRun(
                task,
                kinds.of(task),
                cause,
                AttemptOutcome.NODE_ABSENT,
                (c, error) -> statements.failBeforeRun(c, task.id(), error, storage.offsetMicros()));
    }
}
