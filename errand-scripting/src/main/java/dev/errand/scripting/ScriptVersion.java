package dev.errand.scripting;

import java.time.Instant;

/**
 * One stored version of a script. Versions are immutable: saving changed code adds the next version, and the
 * only change a version ever sees is being disabled.
 *
 * @param name the script's name
 * @param version its version, 1 for the first
 * @param language the {@link ScriptLanguage} it is written in, such as {@code groovy}
 * @param source its code
 * @param createdAt when it was saved, on the database clock
 * @param createdBy who saved it, as the application named them
 * @param disabledAt when it was disabled, or {@code null} while it may run
 * @param disabledBy who disabled it, or {@code null}
 */
public record ScriptVersion(
        String name,
        int version,
        String language,
        String source,
        Instant createdAt,
        String createdBy,
        Instant disabledAt,
        String disabledBy) {

    /** Whether this version may no longer run. */
    public boolean disabled() {
        return disabledAt != null;
    }
}
