package dev.errand.internal.engine;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The attempts whose handlers run on this node now, with their contexts and threads, so that a cancel
 * request can reach them.
 */
final class RunningAttempts {

    private record Running(AttemptContext context, Thread thread) {}

    private final Map<Long, Running> running = new ConcurrentHashMap<>();

    /** The handler of {@code taskId} starts on the current thread. */
    void began(long taskId, AttemptContext context) {
        running.put(taskId, new Running(context, Thread.currentThread()));
    }

    /** The handler of {@code taskId} ended; an interrupt meant for it must not reach the next task. */
    void ended(long taskId) {
        running.remove(taskId);
        Thread.interrupted();
    }

    /** The ids of the running attempts. */
    long[] ids() {
        return running.keySet().stream().mapToLong(Long::longValue).toArray();
    }

    /** Flags the attempt cancelled and interrupts its thread, once; false if it is not running. */
    boolean cancel(long taskId) {
        Running attempt = running.get(taskId);
        if (attempt == null || attempt.context().isCancelled()) {
            return false;
        }
        attempt.context().cancel();
        attempt.thread().interrupt();
        return true;
    }
}
