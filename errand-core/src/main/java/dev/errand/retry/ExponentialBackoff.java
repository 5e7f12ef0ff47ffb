package dev.errand.retry;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Delays that grow by a factor after each failed attempt, up to a cap, with random jitter.
 * The delay after attempt n is {@code min(cap, initial * factor^(n-1))}, then multiplied by a random
 * value in {@code [1 - jitter, 1 + jitter]} and capped again.
 */
public final class ExponentialBackoff implements RetryPolicy {

    private final Duration initial;
    private final Duration cap;
    private final double factor;
    private final double jitter;

    private ExponentialBackoff(Duration initial, Duration cap, double factor, double jitter) {
        this.initial = Delays.requirePositive(initial, "Initial backoff delay");
        this.cap = Delays.requirePositive(cap, "Backoff cap");
        if (cap.compareTo(initial) < 0) {
            throw new IllegalArgumentException(
                    "Backoff cap " + cap + " must not be below the initial delay " + initial);
        }
        if (!(factor >= 1.0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("Backoff factor must be a finite number of 1.0 or more, got " + factor);
        }
        if (!(jitter >= 0.0 && jitter < 1.0)) {
            throw new IllegalArgumentException("Backoff jitter must be in [0.0, 1.0), got " + jitter);
        }
        this.factor = factor;
        this.jitter = jitter;
    }

    static ExponentialBackoff of(Duration initial, Duration cap) {
        return new ExponentialBackoff(initial, cap, 2.0, 0.2);
    }

    /** Returns a copy that multiplies the delay by {@code factor} (1.0 or more) after each attempt. */
    public ExponentialBackoff withFactor(double factor) {
        return new ExponentialBackoff(initial, cap, factor, jitter);
    }

    /** Returns a copy with jitter of ±{@code jitter} (0.0 turns it off, below 1.0). */
    public ExponentialBackoff withJitter(double jitter) {
        return new ExponentialBackoff(initial, cap, factor, jitter);
    }

    /** The delay after the first failed attempt. */
    public Duration initial() {
        return initial;
    }

    /** The longest delay. */
    public Duration cap() {
        return cap;
    }

    /** What the delay is multiplied by after each attempt. */
    public double factor() {
        return factor;
    }

    /** The random spread of each delay, ±this fraction. */
    public double jitter() {
        return jitter;
    }

    @Override
    public Duration delayAfter(int failedAttempt) {
        Delays.requireAttempt(failedAttempt);
        double capMillis = cap.toMillis();
        double base = Math.min(capMillis, initial.toMillis() * Math.pow(factor, failedAttempt - 1));
        double spread = jitter == 0.0 ? 1.0 : 1.0 + ThreadLocalRandom.current().nextDouble(-jitter, jitter);
        return Duration.ofMillis((long) Math.min(capMillis, base * spread));
    }

    @Override
    public String toString() {
        return "ExponentialBackoff[initial=" + initial + ", cap=" + cap + ", factor=" + factor + ", jitter=" + jitter
                + "]";
    }
}
