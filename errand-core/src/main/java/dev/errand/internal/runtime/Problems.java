package dev.errand.internal.runtime;

import dev.errand.internal.outcome.ErrorMessages;
import dev.errand.node.NodeHealth;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What keeps failing in this node's long-lived threads. Each thread reports its failures and its next
 * success; a thread that failed three times in a row, or once with a {@link VirtualMachineError} such as
 * an {@link OutOfMemoryError}, makes the node unhealthy until it succeeds again. Failures are logged
 * once per episode, with the stack trace, not on every retry.
 */
public final class Problems {

    private static final Logger log = LoggerFactory.getLogger(Problems.class);
    private static final int FAILURES_BEFORE_UNHEALTHY = 3;

    private record Episode(int failures, Throwable last, boolean fatal) {}

    private final Map<String, Episode> failing = new ConcurrentHashMap<>();
    private final Map<String, String> dead = new ConcurrentHashMap<>();

    /** A thread's work failed; it will back off and try again. */
    public void failed(String thread, Throwable error) {
        Episode episode = failing.merge(
                thread,
                new Episode(1, error, error instanceof VirtualMachineError),
                (before, now) -> new Episode(before.failures() + 1, error, before.fatal() || now.fatal()));
        if (unreachableDatabase(error)) {
            // The engine waits for the database by itself: a WARN per episode, no stack trace, no ERROR.
            if (episode.failures() == 1) {
                log.warn(
                        "Errand's {} cannot reach the database ({}); it keeps trying until the database answers",
                        thread,
                        ErrorMessages.summary(error));
            } else if (episode.failures() == FAILURES_BEFORE_UNHEALTHY) {
                log.warn(
                        "Errand's {} has failed {} times in a row to reach the database; the node reports itself"
                                + " unhealthy until it does",
                        thread,
                        episode.failures());
            }
            return;
        }
        if (episode.failures() == 1) {
            if (error instanceof Error) {
                log.error(
                        "Errand's {} failed ({}); it keeps running and tries again",
                        thread,
                        ErrorMessages.summary(error),
                        error);
            } else {
                log.warn(
                        "Errand's {} failed ({}); it keeps running and tries again",
                        thread,
                        ErrorMessages.summary(error),
                        error);
            }
        } else if (episode.failures() == FAILURES_BEFORE_UNHEALTHY) {
            log.error(
                    "Errand's {} has failed {} times in a row (last: {}); the node reports itself unhealthy until"
                            + " it succeeds",
                    thread,
                    episode.failures(),
                    ErrorMessages.summary(error));
        }
    }

    /** A thread's work succeeded: its episode, if any, is over. */
    public void succeeded(String thread) {
        Episode over = failing.isEmpty() ? null : failing.remove(thread);
        if (over != null) {
            log.info("Errand's {} works again after {} failures", thread, over.failures());
        }
    }

    /**
     * Whether the failure says the database could not be reached: a connection the driver or pool reports
     * lost or unavailable, SQL state class 08, or a server shutting down (57P01 to 57P03).
     */
    static boolean unreachableDatabase(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof java.sql.SQLNonTransientConnectionException
                    || t instanceof java.sql.SQLTransientConnectionException
                    || t instanceof java.sql.SQLRecoverableException) {
                return true;
            }
            if (t instanceof java.sql.SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                if (state.startsWith("08") || state.startsWith("57P0")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A thread ended although it should not have: the node stays unhealthy. */
    void died(String thread, Throwable cause) {
        dead.put(thread, "stopped: " + ErrorMessages.summary(cause));
        log.error("Errand's {} stopped unexpectedly; the node reports itself unhealthy", thread, cause);
    }

    /** The node's health now. */
    public NodeHealth health() {
        Map<String, String> problems = new TreeMap<>(dead);
        failing.forEach((thread, episode) -> {
            if (episode.fatal() || episode.failures() >= FAILURES_BEFORE_UNHEALTHY) {
                problems.put(
                        thread,
                        "failing (" + episode.failures() + " in a row): " + ErrorMessages.summary(episode.last()));
            }
        });
        return new NodeHealth(problems.isEmpty(), problems);
    }
}
