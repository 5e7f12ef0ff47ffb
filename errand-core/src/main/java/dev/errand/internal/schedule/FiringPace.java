package dev.errand.internal.schedule;

/**
 * Keeps firing to a share of the scheduler's time. A minute on which 10,000 schedules are due otherwise
 * fires in a few seconds of back-to-back transactions that take CPU and connections from claiming
 * (measured in docs/BENCHMARKS.md); pausing after each full firing transaction spreads the same work. The
 * pause follows the transaction's own time, so it grows when the database is slow, which is when claiming
 * needs the room most.
 */
final class FiringPace {

    private final int percent;

    /** @param percent the most of its time, 1 to 100, the scheduler spends firing; 100 never pauses */
    FiringPace(int percent) {
        if (percent < 1 || percent > 100) {
            throw new IllegalArgumentException("The firing share must be 1 to 100 percent, got " + percent);
        }
        this.percent = percent;
    }

    /** The pause after a firing transaction that took {@code firingNanos}. */
    long pauseNanos(long firingNanos) {
        return Math.max(0, firingNanos) * (100 - percent) / percent;
    }

    /**
     * Pauses after a firing transaction that took {@code firingNanos}.
     *
     * @return false if the thread was interrupted (the node is stopping): fire no more now
     */
    boolean pauseAfter(long firingNanos) {
        long pause = pauseNanos(firingNanos);
        if (pause == 0) {
            return true;
        }
        try {
            Thread.sleep(pause / 1_000_000, (int) (pause % 1_000_000));
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
