package dev.errand.internal.engine;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Bounds a log storm: at most {@code perWindow} lines per key (such as a kind and a level) in each
 * window. Lines over the budget are counted, and the first line of the next window says how many were
 * left out, so nothing disappears without a trace.
 */
final class LogBudget {

    private final int perWindow;
    private final long windowNanos;
    private final LongSupplier nanoTime;
    private final Map<String, Window> windows = new HashMap<>();

    LogBudget(int perWindow, long windowNanos, LongSupplier nanoTime) {
        this.perWindow = perWindow;
        this.windowNanos = windowNanos;
        this.nanoTime = nanoTime;
    }

    /**
     * Takes one line from the key's budget.
     *
     * @return -1 if the line must be left out; otherwise how many lines of this key were left out since
     *     the last one logged (usually 0)
     */
    synchronized long take(String key) {
        long now = nanoTime.getAsLong();
        Window window = windows.computeIfAbsent(key, k -> new Window(now));
        if (now - window.start >= windowNanos) {
            window.start = now;
            window.used = 0;
        }
        if (window.used >= perWindow) {
            window.skipped++;
            return -1;
        }
        window.used++;
        long skipped = window.skipped;
        window.skipped = 0;
        return skipped;
    }

    private static final class Window {
        long start;
        int used;
        long skipped;

        Window(long start) {
            this.start = start;
        }
    }
}
