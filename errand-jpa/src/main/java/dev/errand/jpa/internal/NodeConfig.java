package dev.errand.jpa.internal;

import dev.errand.spi.DatabaseClock;
import java.time.Duration;

/**
 * What every queue of one node shares.
 *
 * @param nodeId the node's id, stored as the lease owner
 * @param clock the database clock, shifted in tests
 * @param leaseDuration how long a claim's lease lasts
 * @param rescueInterval how often the node looks for expired leases
 * @param shutdownTimeout how long stopping waits for running items
 */
public record NodeConfig(
        String nodeId, DatabaseClock clock, Duration leaseDuration, Duration rescueInterval, Duration shutdownTimeout) {

    /** The clock's offset now, in microseconds. */
    long offsetMicros() {
        return micros(clock.offset());
    }

    /** The lease in microseconds. */
    long leaseMicros() {
        return micros(leaseDuration);
    }

    static long micros(Duration duration) {
        return duration.toNanos() / 1_000;
    }
}
