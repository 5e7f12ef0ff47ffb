package dev.errand.spi;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/** A {@link DatabaseClock} for tests: the database's time plus an offset that the test moves. */
public final class ShiftableClock implements DatabaseClock {

    private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

    ShiftableClock() {}

    @Override
    public Duration offset() {
        return offset.get();
    }

    /**
     * Moves this clock forward.
     *
     * @throws IllegalArgumentException if the amount is null or negative: time does not go back
     */
    public void advance(Duration amount) {
        if (amount == null || amount.isNegative()) {
            throw new IllegalArgumentException("A clock only moves forward; got " + amount);
        }
        offset.accumulateAndGet(amount, Duration::plus);
    }
}
