package dev.errand.cli;

import dev.errand.admin.Cancellation;
import dev.errand.admin.TaskAdmin;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * An action on tasks by id: each id in turn, each in a transaction of its own. It exits with 1 if the action did
 * not apply to one of them (not in a state that allows it, or gone), after trying them all.
 */
abstract class TaskActionCommand implements Callable<Integer> {

    /**
     * What the action did to one task.
     *
     * @param id the task
     * @param done whether the action applied
     * @param result what happened, as a word for scripts
     * @param message what happened, for people
     */
    record Outcome(long id, boolean done, String result, String message) {}

    @Spec
    private CommandSpec spec;

    @Mixin
    private ConnectionOptions connection;

    @Mixin
    private Output output;

    @Parameters(arity = "1..*", paramLabel = "ID", description = "The tasks' ids.")
    private List<Long> ids;

    /** Applies the action to one task. */
    abstract Outcome apply(TaskAdmin admin, long id);

    @Override
    public Integer call() {
        ids.forEach(id -> TaskIds.require(spec, id));
        List<Outcome> outcomes = new ArrayList<>();
        try (AdminSession session = AdminSession.open(connection)) {
            for (long id : ids) {
                outcomes.add(apply(session.errand().admin(), id));
            }
        }
        if (output.json()) {
            output.printJson(outcomes);
        } else {
            for (Outcome outcome : outcomes) {
                (outcome.done() ? output.out() : output.err()).println(outcome.message());
            }
            output.out().flush();
            output.err().flush();
        }
        return outcomes.stream().allMatch(Outcome::done) ? 0 : ErrandCli.FAILED;
    }

    /** {@code errand tasks retry}. */
    @Command(
            name = "retry",
            mixinStandardHelpOptions = true,
            description = "Runs failed or cancelled tasks again now, with a fresh count of attempts.")
    static final class Retry extends TaskActionCommand {
        @Override
        Outcome apply(TaskAdmin admin, long id) {
            return admin.retryNow(id)
                    ? new Outcome(id, true, "retried", "task " + id + ": retried")
                    : new Outcome(
                            id,
                            false,
                            "not-retried",
                            "task " + id + ": not retried; only a failed or cancelled task can be, and it may be gone");
        }
    }

    /** {@code errand tasks cancel}. */
    @Command(
            name = "cancel",
            mixinStandardHelpOptions = true,
            description = {
                "Cancels pending and waiting tasks, and asks running ones to stop: the node that runs one tells its"
                        + " handler and interrupts it within a heartbeat."
            })
    static final class Cancel extends TaskActionCommand {
        @Override
        Outcome apply(TaskAdmin admin, long id) {
            Cancellation cancellation = admin.requestCancel(id);
            return switch (cancellation) {
                case CANCELLED -> new Outcome(id, true, "cancelled", "task " + id + ": cancelled");
                case REQUESTED ->
                    new Outcome(
                            id,
                            true,
                            "requested",
                            "task " + id + ": running; its node is asked to stop it (it ends cancelled if its handler"
                                    + " stops)");
                case NOT_CANCELLABLE ->
                    new Outcome(id, false, "not-cancellable", "task " + id + ": not cancelled; it is finished or gone");
            };
        }
    }

    /** {@code errand tasks delete}. */
    @Command(
            name = "delete",
            mixinStandardHelpOptions = true,
            description = {
                "Deletes tasks in any state. A running attempt of a deleted task finds its row gone and writes"
                        + " nothing; a task deleted before it ended counts as cancelled in its batch or workflow."
            })
    static final class Delete extends TaskActionCommand {
        @Override
        Outcome apply(TaskAdmin admin, long id) {
            return admin.delete(id)
                    ? new Outcome(id, true, "deleted", "task " + id + ": deleted")
                    : new Outcome(id, false, "not-found", "task " + id + ": not deleted; there is no such task");
        }
    }
}
