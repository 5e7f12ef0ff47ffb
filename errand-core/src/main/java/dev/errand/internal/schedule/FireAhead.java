package dev.errand.internal.schedule;

import java.time.Duration;
import java.time.Instant;

/**
 * When a schedule writes the task of a slot: up to the lookahead before the slot, at a point of that window
 * fixed by the schedule's name. Thousands of schedules on one minute are then written spread over the
 * minute before it, a few per poll, instead of in a burst at the minute that takes CPU, connections and
 * index pages from claiming (measured in docs/BENCHMARKS.md). The task waits as {@code pending} with its
 * {@code run_at} at the slot, so it still runs no earlier.
 *
 * <p>A slot is never written before the schedule's previous slot has come. So at most one task per
 * schedule waits ahead of its slot, and it is the one of the schedule's {@code last_run_at}: a change to the
 * schedule knows which task it may have to take back.
 */
public final class FireAhead {

    private final long lookaheadMillis;

    /** @param lookahead the longest a task is written before its slot; zero writes each slot when it comes */
    public FireAhead(Duration lookahead) {
        if (lookahead == null || lookahead.isNegative()) {
            throw new IllegalArgumentException("The schedule lookahead must be zero or more, got " + lookahead);
        }
        this.lookaheadMillis = lookahead.toMillis();
    }

    /**
     * How long before its slots the schedule of this name writes them: a fraction of the lookahead that
     * depends on the name alone, so that every node computes the same one and names spread evenly.
     */
    public Duration lead(String name) {
        // String.hashCode is fixed by the language; the mixing spreads names that differ in one character.
        long unsigned = Integer.toUnsignedLong(mix(name.hashCode()));
        return Duration.ofMillis((long) ((double) lookaheadMillis * unsigned / (1L << 32)));
    }

    /**
     * When the schedule writes the task of {@code slot}.
     *
     * @param name the schedule's name
     * @param slot the slot
     * @param notBefore the schedule's previous slot, or the moment it was declared, changed or resumed: a
     *     slot is never written earlier
     */
    public Instant fireAt(String name, Instant slot, Instant notBefore) {
        Instant ahead = slot.minus(lead(name));
        return ahead.isBefore(notBefore) ? notBefore : ahead;
    }

    /** Murmur3's finalizer: every bit of the input affects every bit of the output. */
    private static int mix(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }
}
