package dev.errand.examples.plain;

import dev.errand.admin.TaskAdmin;
import dev.errand.admin.TaskQuery;
import dev.errand.task.TaskState;

/**
 * How many tasks are in each state, read through the admin API. Succeeded tasks are only there to
 * count because the demo keeps them ({@code succeededRetention}); by default Errand deletes them.
 *
 * @param pending waiting to run, including failed attempts scheduled for a retry
 * @param waiting waiting for something else
 * @param running claimed by a worker; this includes non-transactional tasks whose handler has
 *     returned but whose completion waits a few milliseconds for the next batched flush
 * @param succeeded done
 * @param failed failed for good
 * @param cancelled cancelled by an operator
 */
record TaskCounts(long pending, long waiting, long running, long succeeded, long failed, long cancelled) {

    /** Reads the counts, one {@code COUNT(*)} per state. */
    static TaskCounts read(TaskAdmin admin) {
        return new TaskCounts(
                count(admin, TaskState.PENDING),
                count(admin, TaskState.WAITING),
                count(admin, TaskState.RUNNING),
                count(admin, TaskState.SUCCEEDED),
                count(admin, TaskState.FAILED),
                count(admin, TaskState.CANCELLED));
    }

    /** Tasks that may still run. */
    long active() {
        return pending + waiting + running;
    }

    /** Tasks in a final state. */
    long finished() {
        return succeeded + failed + cancelled;
    }

    private static long count(TaskAdmin admin, TaskState state) {
        return admin.count(TaskQuery.builder().state(state).build());
    }
}
