package dev.errand.internal.engine;

import dev.errand.history.AttemptOutcome;
import dev.errand.internal.history.AttemptHistory;
import dev.errand.internal.history.AttemptRow;
import dev.errand.internal.outcome.Ending;
import dev.errand.internal.store.Storage;
import dev.errand.internal.workflow.Finish;
import dev.errand.internal.workflow.Finisher;
import dev.errand.spi.ClaimedTask;
import dev.errand.spi.TaskTracing;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit: runs claimed tasks of one transactional kind one after the other in one database transaction,
 * each under a savepoint, and ends the group with one commit. Each task's writes and its completion are still
 * committed together or not at all: a task whose handler fails is rolled back to its savepoint and settled after
 * the commit, and the others commit. The lease fence holds per task, since each locks its row checking its token
 * before its handler runs.
 *
 * <p>If the transaction itself is lost (a dropped connection, a deadlock that the database ends the whole
 * transaction for, a failed commit) nothing of the group is committed; each task is settled as that failure says:
 * the task that caused it with its own ending, the others given back without spending an attempt when the cause is
 * known to be the infrastructure or another task.
 */
final class GroupRunner {

    private static final Logger log = LoggerFactory.getLogger(GroupRunner.class);
    /** The one savepoint name of a group: set again before each task. */
    private static final String SAVEPOINT = "errand_group_task";

    private final TaskRunner runner;
    private final Storage storage;
    private final Finisher finisher;
    private final TaskRunner.Enders enders;
    private final EngineStats stats;
    private final Stores stores;

    /** How one task of the group ended inside the group's transaction. */
    private enum Result {
        /** Not run yet, or run and then lost with the group. */
        PENDING,
        /** The handler returned; its completion is written and waits for the commit. */
        SUCCEEDED,
        /** The handler's failure or retry was written keeping its writes, and waits for the commit. */
        KEPT,
        /** Rolled back to its savepoint; settled after the transaction with {@link Member#ending}. */
        ROLLED_BACK,
        /** Its lease was taken back before it ran; another node has it. */
        FENCED
    }

    /** One task of a group and how it ended. */
    private static final class Member {
        final TaskRunner.Attempt attempt;
        Result result = Result.PENDING;
        Ending ending;
        /** A success whose completion the group writes with the others', with its duration and log. */
        Ended unwritten;

        Member(TaskRunner.Attempt attempt) {
            this.attempt = attempt;
        }
    }

    GroupRunner(TaskRunner runner, Stores stores, TaskRunner.Enders enders, EngineStats stats) {
        this.runner = runner;
        this.storage = stores.storage();
        this.stores = stores;
        this.finisher = stores.finisher();
        this.enders = enders;
        this.stats = stats;
    }

    /** Runs the tasks, all of one group-commit kind, in one transaction. */
    void run(List<ClaimedTask> tasks) {
        List<Member> members = new ArrayList<>(tasks.size());
        for (ClaimedTask task : tasks) {
            TaskRunner.Attempt attempt = runner.prepare(task);
            if (attempt != null) {
                members.add(new Member(attempt));
            }
        }
        if (members.isEmpty()) {
            return;
        }
        // The group's first statement locks every row: a heartbeat from here on would wait on that lock, and hold up
        // the heartbeats of the node's other tasks with it.
        List<Long> ids = new ArrayList<>(members.size());
        members.forEach(member -> ids.add(member.attempt.task.id()));
        enders.leases().forgetBeforeLocking(ids);
        Member[] culprit = new Member[1];
        try (Finish finish = finisher.open()) {
            Throwable lostWith = null;
            try {
                storage.hostTransactions().inTransaction(storage.dataSource(), connection -> {
                    runAll(connection, members, finish, culprit);
                    return null;
                });
            } catch (Throwable failure) {
                lostWith = failure;
            }
            if (lostWith == null) {
                committed(members);
            } else {
                lost(members, culprit[0], lostWith);
            }
        }
    }

    private void runAll(Connection connection, List<Member> members, Finish finish, Member[] culprit) throws Exception {
        RegisteredKind kind = members.get(0).attempt.kind;
        // A stalled or partitioned worker must not hold the rows' locks for ever; see TaskRunner.attempt.
        storage.dialect().boundTransaction(connection, kind.lease().multipliedBy(2), kind.executionTimeout());
        // One statement locks every row of the group, checking the tokens; if a lease was taken back, each task
        // is locked on its own instead, to learn which.
        boolean allLocked = storage.tasks().lockAllForRun(connection, ids(members), tokens(members)) == members.size();
        try (Statement savepoints = connection.createStatement()) {
            boolean first = true;
            for (Member member : members) {
                culprit[0] = member;
                if (!allLocked && !storage.tasks().lockForRun(connection, member.attempt.task)) {
                    member.attempt.began = true;
                    member.result = Result.FENCED;
                    continue;
                }
                savepoints.execute(
                        first ? "SAVEPOINT " + SAVEPOINT : storage.dialect().savepointAgain(SAVEPOINT));
                first = false;
                runOne(connection, savepoints, member, finish);
            }
            culprit[0] = null;
        }
        completeTogether(connection, members);
    }

    /**
     * Runs one task of the group, its row locked, under the savepoint just set. A failure that leaves the
     * transaction usable is rolled back to the savepoint and kept on the member; one that does not (a lost
     * connection, a savepoint the database dropped with the whole transaction) ends the group.
     */
    private void runOne(Connection connection, Statement savepoints, Member member, Finish finish) throws Exception {
        ClaimedTask task = member.attempt.task;
        try (TaskLogContext ignored = TaskLogContext.enter(task);
                TaskTracing.AttemptSpan span = runner.span(task)) {
            try {
                TaskRunner.Handled handled = runner.runLocked(connection, member.attempt, finish, true);
                member.result = handled == TaskRunner.Handled.KEPT_WRITES ? Result.KEPT : Result.SUCCEEDED;
                if (handled == TaskRunner.Handled.SUCCEEDED_UNWRITTEN) {
                    member.unwritten = member.attempt.ended(new Ending.Succeeded());
                }
            } catch (Throwable failure) {
                if (storage.transactions().isConnectionFailure(failure)) {
                    throw failure;
                }
                try {
                    savepoints.execute("ROLLBACK TO SAVEPOINT " + SAVEPOINT);
                } catch (SQLException | RuntimeException broken) {
                    failure.addSuppressed(broken);
                    throw failure;
                }
                member.result = Result.ROLLED_BACK;
                member.ending = failure instanceof TaskRunner.RollBack rollBack
                        ? rollBack.ending
                        : runner.endingOf(failure, member.attempt.began);
            }
        }
    }

    /**
     * Writes the completions the tasks left to the group (those with nothing linked) in one statement, with their
     * history rows when history is on. Their rows are locked by this transaction, so each is completed.
     */
    private void completeTogether(Connection connection, List<Member> members) throws SQLException {
        List<Member> simple = new ArrayList<>(members.size());
        for (Member member : members) {
            if (member.unwritten != null) {
                simple.add(member);
            }
        }
        if (simple.isEmpty()) {
            return;
        }
        long[] ids = ids(simple);
        long[] tokens = tokens(simple);
        AttemptHistory history = stores.attempts();
        int completed;
        if (history.ridesOnCompletion()) {
            completed = storage.tasks()
                    .succeedAllReturningIds(connection, ids, tokens, history.successRider(rows(simple)))
                    .size();
        } else {
            if (history.enabled()) {
                history.recordAll(connection, rows(simple));
            }
            completed = storage.tasks().succeedAllByKey(connection, ids, tokens);
        }
        if (completed != ids.length) {
            throw new IllegalStateException("Group commit completed " + completed + " of " + ids.length
                    + " tasks whose rows its transaction had locked; rolling the group back");
        }
    }

    private static List<AttemptRow> rows(List<Member> members) {
        List<AttemptRow> rows = new ArrayList<>(members.size());
        for (Member member : members) {
            rows.add(new AttemptRow(
                    member.attempt.task,
                    AttemptOutcome.SUCCEEDED,
                    member.unwritten.durationMicros(),
                    null,
                    member.unwritten.logs()));
        }
        return rows;
    }

    private static long[] ids(List<Member> members) {
        long[] ids = new long[members.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = members.get(i).attempt.task.id();
        }
        return ids;
    }

    private static long[] tokens(List<Member> members) {
        long[] tokens = new long[members.size()];
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = members.get(i).attempt.task.leaseToken();
        }
        return tokens;
    }

    /** The group committed: counts the successes and settles the tasks rolled back to their savepoints. */
    private void committed(List<Member> members) {
        for (Member member : members) {
            switch (member.result) {
                case SUCCEEDED -> runner.committed(member.attempt, false);
                case KEPT -> runner.committed(member.attempt, true);
                case FENCED -> fencedOff(member);
                case ROLLED_BACK -> settle(member, member.ending);
                case PENDING ->
                    log.error(
                            "Task {} of a committed group did not run; its lease will expire and rescue will run it",
                            member.attempt.task.id());
            }
        }
    }

    /**
     * The group's transaction rolled back as a whole. The task that caused it ends as its failure says; the others
     * did nothing wrong: a lost connection or lock conflict gives them back as such (bounded, in a row), a failure
     * one task caused gives them back without spending an attempt, and a failure of the commit itself, whose cause
     * is unknown, counts as a failed attempt of each, so that a group that can never commit ends.
     */
    private void lost(List<Member> members, Member culprit, Throwable failure) {
        log.warn(
                "A group of {} tasks of kind '{}' rolled back as a whole ({}); each is settled and runs again as its"
                        + " retry policy says",
                members.size(),
                members.get(0).attempt.task.kind(),
                failure.toString());
        boolean infrastructure = storage.transactions().isConnectionFailure(failure)
                || storage.transactions().isLockConflict(failure);
        for (Member member : members) {
            if (member.result == Result.FENCED) {
                fencedOff(member);
            } else if (member.result == Result.ROLLED_BACK) {
                settle(member, member.ending);
            } else if (member == culprit || infrastructure || culprit == null) {
                settle(member, runner.endingOf(failure, member.attempt.began));
            } else {
                settle(member, new Ending.NotStarted(failure));
            }
        }
    }

    private void settle(Member member, Ending ending) {
        enders.settler().settle(member.attempt.task, member.attempt.kind, member.attempt.ended(ending));
    }

    private void fencedOff(Member member) {
        stats.recordFencedOff(1);
        log.warn(
                "Task {} ({}) lost its lease before it started; another node has it",
                member.attempt.task.id(),
                member.attempt.task.kind());
    }
}
