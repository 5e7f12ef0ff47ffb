package dev.errand.internal.store;

import dev.errand.task.TaskState;
import java.util.StringJoiner;

/** State names as SQL literals, all derived from {@link TaskState#dbValue()}. */
public final class States {

    /** {@code 'pending'}. */
    public static final String PENDING = literal(TaskState.PENDING);
    /** {@code 'waiting'}. */
    public static final String WAITING = literal(TaskState.WAITING);
    /** {@code 'running'}. */
    public static final String RUNNING = literal(TaskState.RUNNING);
    /** {@code 'succeeded'}. */
    public static final String SUCCEEDED = literal(TaskState.SUCCEEDED);
    /** {@code 'failed'}. */
    public static final String FAILED = literal(TaskState.FAILED);
    /** {@code 'cancelled'}. */
    public static final String CANCELLED = literal(TaskState.CANCELLED);
    /** The states in which a task still holds its unique key: {@code ('pending', 'waiting', 'running')}. */
    public static final String ACTIVE = in(TaskState.PENDING, TaskState.WAITING, TaskState.RUNNING);
    /** The final states: {@code ('succeeded', 'failed', 'cancelled')}. */
    public static final String FINISHED = in(TaskState.SUCCEEDED, TaskState.FAILED, TaskState.CANCELLED);

    private States() {}

    /** One state as an SQL string literal. */
    public static String literal(TaskState state) {
        return "'" + state.dbValue() + "'";
    }

    /** A parenthesized list of state literals, for {@code state IN …}. */
    public static String in(TaskState... states) {
        StringJoiner list = new StringJoiner(", ", "(", ")");
        for (TaskState state : states) {
            list.add(literal(state));
        }
        return list.toString();
    }
}
