package dev.errand.admin;

import java.util.function.Consumer;

/**
 * How a bulk action runs: in chunks of ids picked by keyset, one transaction per chunk, so that no transaction
 * holds many row locks for long; and what it may touch at most. Immutable; start from {@link #defaults()} or
 * {@link #chunksOf(int)}.
 */
public final class BulkOptions {

    /** The largest chunk. */
    public static final int MAX_CHUNK = 10_000;

    /** The chunk size unless set. */
    public static final int DEFAULT_CHUNK = 1_000;

    private static final Consumer<BulkResult> NO_PROGRESS = progress -> {};

    private static final BulkOptions DEFAULTS =
            new BulkOptions(DEFAULT_CHUNK, Long.MAX_VALUE, Long.MAX_VALUE, NO_PROGRESS);

    private final int chunkSize;
    private final long atMost;
    private final long upToId;
    private final Consumer<BulkResult> progress;

    private BulkOptions(int chunkSize, long atMost, long upToId, Consumer<BulkResult> progress) {
        this.chunkSize = chunkSize;
        this.atMost = atMost;
        this.upToId = upToId;
        this.progress = progress;
    }

    /** Chunks of {@value #DEFAULT_CHUNK}, no cap on the count, every id. */
    public static BulkOptions defaults() {
        return DEFAULTS;
    }

    /**
     * Chunks of {@code size} tasks, each in a transaction of its own.
     *
     * @throws IllegalArgumentException if it is not 1 to {@value #MAX_CHUNK}
     */
    public static BulkOptions chunksOf(int size) {
        return DEFAULTS.withChunkSize(size);
    }

    /**
     * These options with chunks of {@code size} tasks.
     *
     * @throws IllegalArgumentException if it is not 1 to {@value #MAX_CHUNK}
     */
    public BulkOptions withChunkSize(int size) {
        if (size < 1 || size > MAX_CHUNK) {
            throw new IllegalArgumentException("chunk size must be between 1 and " + MAX_CHUNK + ", got " + size);
        }
        return new BulkOptions(size, atMost, upToId, progress);
    }

    /**
     * Stops after {@code tasks} matches: a guard against a filter that matches more than meant.
     *
     * @throws IllegalArgumentException if it is not positive
     */
    public BulkOptions atMost(long tasks) {
        if (tasks < 1) {
            throw new IllegalArgumentException("atMost must be 1 or more (the most tasks to act on), got " + tasks);
        }
        return new BulkOptions(chunkSize, tasks, upToId, progress);
    }

    /**
     * Acts only on tasks whose id is at most {@code id}: the set the operator counted and confirmed (see
     * {@link BulkCount#highestId()}), not tasks enqueued after.
     *
     * @throws IllegalArgumentException if it is not positive
     */
    public BulkOptions upToId(long id) {
        if (id < 1) {
            throw new IllegalArgumentException("upToId must be a task id (1 or more), got " + id);
        }
        return new BulkOptions(chunkSize, atMost, id, progress);
    }

    /**
     * Calls {@code listener} after each chunk has committed, on the thread that runs the action, with what the
     * action has done so far; a background runner shows it as progress. A listener that throws stops the action
     * there, and the exception leaves the action: the chunks that committed stay done (each is a transaction of its
     * own), the rest is not done, and running the action again on the same filter does the rest.
     *
     * @throws IllegalArgumentException if it is null
     */
    public BulkOptions onProgress(Consumer<BulkResult> listener) {
        if (listener == null) {
            throw new IllegalArgumentException("listener must not be null; leave onProgress out to watch nothing");
        }
        return new BulkOptions(chunkSize, atMost, upToId, listener);
    }

    /** The most tasks one chunk (one transaction) handles. */
    public int chunkSize() {
        return chunkSize;
    }

    /** The most tasks the action matches; {@link Long#MAX_VALUE} when not capped. */
    public long atMost() {
        return atMost;
    }

    /** The highest id the action touches; {@link Long#MAX_VALUE} when not bounded. */
    public long upToId() {
        return upToId;
    }

    /** What {@link #onProgress(Consumer)} set; a listener that does nothing by default. */
    public Consumer<BulkResult> progress() {
        return progress;
    }

    @Override
    public String toString() {
        return "BulkOptions[chunkSize=" + chunkSize + ", atMost=" + atMost + ", upToId=" + upToId + "]";
    }
}
