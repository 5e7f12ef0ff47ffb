package dev.errand.scripting;

import dev.errand.task.TaskContext;
import java.sql.Connection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a running script knows about its task, bound to the script as {@code task}. It is a narrow view of the
 * handler's {@link TaskContext}: the script's own name and version, the task's id, queue and attempt, its
 * processing log, cancellation, and in {@link dev.errand.task.ExecutionMode#TRANSACTIONAL TRANSACTIONAL} mode
 * the connection whose transaction also completes the task.
 */
public final class ScriptTaskContext {

    private final TaskContext context;
    private final String script;
    private final int version;
    private final Logger logger;

    ScriptTaskContext(TaskContext context, String script, int version) {
        this.context = context;
        this.script = script;
        this.version = version;
        this.logger = LoggerFactory.getLogger("errand.script." + script.replaceAll("[^A-Za-z0-9_-]", "_"));
    }

    /** The script's name. */
    public String script() {
        return script;
    }

    /** The version that runs. */
    public int version() {
        return version;
    }

    /** The task's id. */
    public long taskId() {
        return context.taskId();
    }

    /** The queue the task was claimed from. */
    public String queue() {
        return context.queue();
    }

    /** This attempt's number, starting at 1. */
    public int attempt() {
        return context.attempt();
    }

    /** The most attempts the task may have. */
    public int maxAttempts() {
        return context.maxAttempts();
    }

    /** Whether an operator asked to cancel the task; the script's thread is interrupted too. */
    public boolean isCancelled() {
        return context.isCancelled();
    }

    /** Writes a line to the attempt's processing log (kept with the attempt in the attempt history). */
    public void log(String line) {
        context.log(line);
    }

    /**
     * The logger of this script, named {@code errand.script.<name>} (characters other than letters, digits,
     * {@code _} and {@code -} as {@code _}); also bound as {@code logger}.
     */
    public Logger logger() {
        return logger;
    }

    /**
     * The connection whose transaction completes the task; also bound as {@code connection}. Do not commit, roll
     * back or close it.
     *
     * @throws IllegalStateException when scripts run {@link dev.errand.task.ExecutionMode#NON_TRANSACTIONAL
     *     NON_TRANSACTIONAL}
     */
    public Connection connection() {
        return context.connection();
    }

    @Override
    public String toString() {
        return "script " + script + " version " + version + ", task " + context.taskId() + ", attempt "
                + context.attempt();
    }
}
