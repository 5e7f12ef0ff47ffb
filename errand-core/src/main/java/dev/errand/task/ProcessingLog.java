package dev.errand.task;

import java.util.ArrayList;
import java.util.List;

/**
 * The processing log of one attempt: lines that its handler writes ({@link TaskContext#log(String)}) and,
 * where a logging integration is installed (the Spring Boot starter's, for Logback), the log events of the
 * handler's thread while the attempt runs. The lines are stored with the attempt in the attempt history.
 *
 * <p>Each attempt has its own log, bound to the thread that runs its handler, so the lines of handlers that
 * run at the same time never mix. Work the handler hands to other threads is not captured. A log keeps at
 * most {@link #MAX_LINES} lines and {@link #MAX_CHARS} characters; what comes after is counted, not kept.
 */
public final class ProcessingLog {

    /** The most lines one attempt keeps. */
    public static final int MAX_LINES = 500;

    /** The most characters one attempt keeps, line breaks included. */
    public static final int MAX_CHARS = 64_000;

    /** The most characters of one line. */
    public static final int MAX_LINE_CHARS = 4_000;

    private static final ThreadLocal<ProcessingLog> CURRENT = new ThreadLocal<>();

    private final List<String> lines = new ArrayList<>();
    private int chars;
    private int dropped;

    /** Creates an empty log; the engine creates one per attempt. */
    public ProcessingLog() {}

    /**
     * Appends a line to the log of the attempt that runs on this thread, if any. Logging integrations call
     * it for each log event of the thread.
     *
     * @return whether an attempt runs on this thread (whether or not the line fit)
     */
    public static boolean appendToCurrent(String line) {
        ProcessingLog log = CURRENT.get();
        if (log == null) {
            return false;
        }
        log.append(line);
        return true;
    }

    /**
     * Binds this log to the calling thread until {@link #unbind()}: log events of the thread go here.
     *
     * @throws IllegalStateException if another log is bound to the thread
     */
    public void bind() {
        if (CURRENT.get() != null && CURRENT.get() != this) {
            throw new IllegalStateException("Another attempt's processing log is bound to this thread");
        }
        CURRENT.set(this);
    }

    /** Unbinds this log from the calling thread. */
    public void unbind() {
        if (CURRENT.get() == this) {
            CURRENT.remove();
        }
    }

    /** Appends a line, if it fits within the bounds; a null line is written as {@code null}. */
    public synchronized void append(String line) {
        String text = String.valueOf(line);
        if (text.length() > MAX_LINE_CHARS) {
            text = text.substring(0, MAX_LINE_CHARS) + "...";
        }
        if (lines.size() >= MAX_LINES || chars + text.length() + 1 > MAX_CHARS) {
            dropped++;
            return;
        }
        lines.add(text);
        chars += text.length() + 1;
    }

    /** The lines kept so far. */
    public synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    /** The log as stored: its lines joined by line breaks, with a last line counting those left out; {@code null} when empty. */
    public synchronized String text() {
        if (lines.isEmpty() && dropped == 0) {
            return null;
        }
        StringBuilder text = new StringBuilder(chars + 64);
        for (String line : lines) {
            text.append(line.replace('\u0000', '\uFFFD')).append('\n');
        }
        if (dropped > 0) {
            text.append("(")
                    .append(dropped)
                    .append(" more lines left out: at most ")
                    .append(MAX_LINES)
                    .append(" lines and ")
                    .append(MAX_CHARS)
                    .append(" characters are kept per attempt)\n");
        }
        return text.toString();
    }
}
