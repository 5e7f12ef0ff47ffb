package dev.errand.internal.engine;

import dev.errand.internal.outcome.ErrorMessages;
import dev.errand.internal.store.AttemptError;
import dev.errand.spi.ClaimedTask;
import dev.errand.spi.PayloadCodec;
import dev.errand.task.FailureCause;
import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * Formats what went wrong into the texts stored on a task: the stack trace (or the cause's text) in
 * {@code last_error}, and a one-line entry in the {@code errors} history. The texts are made safe for
 * every database: a NUL character, which PostgreSQL cannot store, is replaced, and an exception whose
 * message or stack trace cannot be read still gives a text.
 */
final class ErrorTexts {

    private static final int MAX_LAST_ERROR = 8_000;
    private static final int MAX_ENTRY_ERROR = 1_000;

    private final PayloadCodec codec;
    private final String nodeId;

    ErrorTexts(PayloadCodec codec, String nodeId) {
        this.codec = codec;
        this.nodeId = nodeId;
    }

    /** The error of an attempt of {@code task} that ended with {@code cause}. */
    AttemptError of(ClaimedTask task, FailureCause cause) {
        String summary = cause.describe();
        String detail = cause instanceof FailureCause.HandlerFailed failed && failed.exception() != null
                ? stackTrace(failed.exception())
                : summary;
        return of(task.attempt(), summary, detail);
    }

    /** The same error with a note added to {@code last_error}, such as a failure callback's own error. */
    AttemptError withNote(AttemptError error, String note) {
        // The note goes first: a long stack trace is cut at the end, and the note must survive the cut.
        return new AttemptError(truncate(safe(note + "\n" + error.lastError()), MAX_LAST_ERROR), error.entryJson());
    }

    private AttemptError of(int attempt, String summary, String detail) {
        String entry = "{\"attempt\":" + attempt + ",\"node\":" + codec.quote(nodeId) + ",\"error\":"
                + codec.quote(truncate(safe(summary), MAX_ENTRY_ERROR)) + "}";
        return new AttemptError(truncate(safe(detail), MAX_LAST_ERROR), entry);
    }

    static String stackTrace(Throwable error) {
        try {
            StringWriter trace = new StringWriter();
            error.printStackTrace(new PrintWriter(trace));
            return trace.toString();
        } catch (RuntimeException | StackOverflowError broken) {
            return ErrorMessages.summary(error) + "\n(its stack trace could not be printed: "
                    + broken.getClass().getName() + ")";
        }
    }

    /** Replaces NUL, which PostgreSQL's text and JSON types reject, so that recording cannot fail on it. */
    static String safe(String text) {
        return text == null ? "" : text.replace('\u0000', '\uFFFD');
    }

    private static String truncate(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 3) + "...";
    }
}
