package dev.errand.internal.engine;

import dev.errand.internal.outcome.Decision;
import dev.errand.internal.outcome.Ending;
import dev.errand.internal.outcome.OutcomePolicy;
import dev.errand.internal.workflow.Finish;
import dev.errand.spi.ClaimedTask;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ends attempts that did not succeed: asks the outcome policy what follows how an attempt ended, and has it
 * written, after it stops tracking the task's lease. It also counts each task's lock conflicts in a row, which the policy
 * needs to tell a passing collision from one that never ends.
 */
final class Settler {

    private final OutcomePolicy policy;
    private final OutcomeWriter writer;
    private final Kinds kinds;
    private final LeaseKeeper leases;
    private final Map<Long, Integer> conflictsInARow = new ConcurrentHashMap<>();
    private final Map<Long, Integer> interruptionsInARow = new ConcurrentHashMap<>();

    Settler(OutcomePolicy policy, OutcomeWriter writer, Kinds kinds, LeaseKeeper leases) {
        this.policy = policy;
        this.writer = writer;
        this.kinds = kinds;
        this.leases = leases;
    }

    /** Ends an attempt in which no handler ran on this node, in a transaction of its own. */
    void settle(ClaimedTask task, RegisteredKind kind, Ending ending) {
        settle(task, kind, Ended.withoutRun(ending));
    }

    /** Ends an attempt that did not succeed, in a transaction of its own. */
    void settle(ClaimedTask task, RegisteredKind kind, Ended ended) {
        leases.forget(task.id());
        Decision decision = policy.decide(kinds.facts(task, kind), counted(task, ended.ending()));
        if (!(decision instanceof Decision.Requeue)) {
            conflictsInARow.remove(task.id());
            interruptionsInARow.remove(task.id());
        }
        writer.write(task, kind, decision, ended);
    }

    /**
     * Ends an attempt on the handler's own transaction, if the outcome is a retry, so that the
     * attempt's writes commit with it.
     *
     * @return false if the outcome is not a retry: the caller rolls back and calls {@link #settle}
     */
    boolean settleInTransaction(Connection connection, ClaimedTask task, RegisteredKind kind, Ending ending)
            throws SQLException {
        Decision decision = policy.decide(kinds.facts(task, kind), ending);
        if (!(decision instanceof Decision.Retry retry)) {
            return false;
        }
        writer.retryInTransaction(connection, task, retry, Ended.withoutRun(ending));
        return true;
    }

    /**
     * Ends an attempt on the handler's own transaction whatever the decision, so that the attempt's writes
     * commit with its outcome: a retry, or a final failure with the kind's failure callback. The handler
     * asked for this ({@code RetryLater.commitWrites()}, or an exception its kind names in
     * {@code commitWritesOn}).
     *
     * @param finish the ending of the handler's transaction, which a failure goes through
     *
     * @return false if the outcome is neither a retry nor a failure: the caller rolls back and calls
     *     {@link #settle}
     */
    boolean settleKeepingWrites(
            Connection connection, Finish finish, ClaimedTask task, RegisteredKind kind, Ended ended)
            throws SQLException {
        Decision decision = policy.decide(kinds.facts(task, kind), ended.ending());
        if (decision instanceof Decision.Retry retry) {
            writer.retryInTransaction(connection, task, retry, ended);
            return true;
        }
        if (decision instanceof Decision.Fail fail) {
            writer.failInTransaction(connection, finish, task, kind, fail.cause(), ended);
            return true;
        }
        return false;
    }

    /** Forgets a task's lock conflicts once an attempt of it committed. */
    void committed(ClaimedTask task) {
        if (!conflictsInARow.isEmpty()) {
            conflictsInARow.remove(task.id());
        }
        if (!interruptionsInARow.isEmpty()) {
            interruptionsInARow.remove(task.id());
        }
    }

    private Ending counted(ClaimedTask task, Ending ending) {
        if (ending instanceof Ending.LostLockConflict lost) {
            return new Ending.LostLockConflict(lost.conflict(), conflictsInARow.merge(task.id(), 1, Integer::sum));
        }
        if (ending instanceof Ending.Interrupted cut) {
            return new Ending.Interrupted(cut.failure(), interruptionsInARow.merge(task.id(), 1, Integer::sum));
        }
        return ending;
    }
}
