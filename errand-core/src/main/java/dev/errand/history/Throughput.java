package dev.errand.history;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * How many attempts ended per time bucket, from the attempt history: the last buckets up to the database's time
 * now, oldest first, every bucket present (empty ones with zeros).
 *
 * @param databaseTime the database's time when it was read
 * @param bucket the length of each bucket
 * @param buckets the buckets, oldest first; the last one holds {@code databaseTime}
 */
public record Throughput(Instant databaseTime, Duration bucket, List<Bucket> buckets) {

    /** Copies the list. */
    public Throughput {
        buckets = List.copyOf(buckets);
    }

    /**
     * One bucket.
     *
     * @param start when it starts, on the database clock (whole multiples of the bucket length since the epoch)
     * @param succeeded attempts that succeeded
     * @param failed tasks that failed for good: a last attempt that failed, an expiry, a pinned node absent too long
     * @param retried attempts that failed and were retried
     */
    public record Bucket(Instant start, long succeeded, long failed, long retried) {}
}
