package dev.errand.spi;

import java.time.Duration;

/**
 * The database's clock, as Errand's SQL reads it, shifted by an offset. Production uses
 * {@link #database()} (no offset): every time comparison then uses the database's own time, so clock
 * skew between nodes cannot matter. Tests use {@link #shiftable()} to move time forward without
 * waiting; the offset is added to the database time inside each statement.
 */
public interface DatabaseClock {

    /** The offset added to the database's current time. */
    Duration offset();

    /** The database's own clock. */
    static DatabaseClock database() {
        return () -> Duration.ZERO;
    }

    /** A database clock that tests can move forward. */
    static ShiftableClock shiftable() {
        return new ShiftableClock();
    }
}
