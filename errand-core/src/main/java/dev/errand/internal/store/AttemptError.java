package dev.errand.internal.store;

/**
 * An error to record on a task: the text for {@code last_error} and the JSON object appended to
 * {@code errors}. The database adds the entry's {@code at} time.
 *
 * @param lastError the text stored in {@code last_error}
 * @param entryJson a JSON object such as {@code {"attempt":2,"error":"..."}}
 */
public record AttemptError(String lastError, String entryJson) {}
