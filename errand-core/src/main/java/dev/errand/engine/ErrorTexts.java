package dev.errand.engine;

import dev.errand.json.PayloadCodec;
import dev.errand.store.AttemptError;
import dev.errand.store.ClaimedTask;
import java.io.PrintWriter;
import java.io.StringWriter;

/** Formats what went wrong into the texts stored on a task. */
final class ErrorTexts {

    private static final int MAX_LAST_ERROR = 8_000;
    private static final int MAX_ENTRY_ERROR = 1_000;

    private final PayloadCodec codec;
    private final String nodeId;

    ErrorTexts(PayloadCodec codec, String nodeId) {
        this.codec = codec;
        this.nodeId = nodeId;
    }

    /** An error from an exception: the stack trace in {@code last_error}, the summary in the history. */
    AttemptError of(ClaimedTask task, Throwable error) {
        StringWriter trace = new StringWriter();
        error.printStackTrace(new PrintWriter(trace));
        return of(task, summary(error), trace.toString());
    }

    /** An error described by text alone. */
    AttemptError of(ClaimedTask task, String message) {
        return of(task, message, message);
    }

    private AttemptError of(ClaimedTask task, String summary, String detail) {
        String entry = "{\"attempt\":" + task.attempt() + ",\"node\":" + codec.quote(nodeId) + ",\"error\":"
                + codec.quote(truncate(summary, MAX_ENTRY_ERROR)) + "}";
        return new AttemptError(truncate(detail, MAX_LAST_ERROR), entry);
    }

    static String summary(Throwable error) {
        String message = error.getMessage();
        return message == null ? error.getClass().getName() : error.getClass().getName() + ": " + message;
    }

    private static String truncate(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 3) + "...";
    }
}
