package dev.errand.internal.runtime;

import dev.errand.internal.outcome.ErrorMessages;
import org.slf4j.Logger;

/**
 * Logs a condition the engine recovers from by itself, such as writes that fail while the database is
 * down, once per episode: one WARN without a stack trace when it begins, a count of what failed during
 * it, and one INFO when it ends. A person needs to act only if it never ends, which the node's health
 * then reports.
 */
public final class Outage {

    private final Logger log;
    private final String what;
    private final String recovery;
    private long failures;

    /**
     * @param what what fails, such as "Writing attempt outcomes"
     * @param recovery what the engine does about it, said once at the start of an episode
     */
    public Outage(Logger log, String what, String recovery) {
        this.log = log;
        this.what = what;
        this.recovery = recovery;
    }

    /** One more failure; the first of an episode is logged. */
    public void failed(String detail, Throwable error) {
        long now;
        synchronized (this) {
            now = ++failures;
        }
        if (now == 1) {
            log.warn("{} failed ({}: {}); {}", what, detail, ErrorMessages.of(error), recovery);
        }
    }

    /** A success: ends the episode, if one is under way, with a line that counts its failures. */
    public void succeeded() {
        long ended;
        synchronized (this) {
            if (failures == 0) {
                return;
            }
            ended = failures;
            failures = 0;
        }
        log.info("{} works again after {} failures", what, ended);
    }

    /** How many failures the current episode has had (0 when none is under way). */
    public synchronized long failures() {
        return failures;
    }
}
