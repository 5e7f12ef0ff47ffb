package dev.errand.console.bulk;

import dev.errand.admin.BulkResult;
import java.time.Instant;

/**
 * One bulk action running, or run, in the background on this node: what it is, who started it, and how far it
 * got. Thread-safe: the job's thread writes it after each chunk, requests read it.
 */
public final class BulkJob {

    /** Where a job is. */
    public enum State {
        /** Chunks are running. */
        RUNNING,
        /** Every chunk ran. */
        FINISHED,
        /** A chunk failed, or the node stopped it: the chunks before stay done, the rest is not done. */
        FAILED
    }

    private final String id;
    private final String action;
    private final String startedBy;
    private final Instant startedAt;
    private final long upToId;
    private volatile long total = -1;
    private volatile BulkResult progress = new BulkResult(0, 0, 0, 0);
    private volatile State state = State.RUNNING;
    private volatile String error;
    private volatile Instant endedAt;

    BulkJob(String id, String action, String startedBy, long upToId) {
        this.id = id;
        this.action = action;
        this.startedBy = startedBy;
        this.startedAt = Instant.now();
        this.upToId = upToId;
    }

    /** The job's id, random, for {@code GET <path>/api/bulk-jobs/<id>}. */
    public String id() {
        return id;
    }

    /** The action: retry, cancel, delete, reschedule or priority. */
    public String action() {
        return action;
    }

    /** The user who started it. */
    public String startedBy() {
        return startedBy;
    }

    /** When it was started, on this node's clock (shown to the operator, never compared with the database's). */
    public Instant startedAt() {
        return startedAt;
    }

    /** The highest task id the action touches: the set the operator counted and confirmed. */
    public long upToId() {
        return upToId;
    }

    /** The tasks of the filter up to {@link #upToId()}, counted when the job began; -1 until counted. */
    public long total() {
        return total;
    }

    /** What the committed chunks did so far (all of it once finished). */
    public BulkResult progress() {
        return progress;
    }

    /** Running, finished or failed. */
    public State state() {
        return state;
    }

    /** Why it failed, or null. */
    public String error() {
        return error;
    }

    /** When it finished or failed, or null while it runs. */
    public Instant endedAt() {
        return endedAt;
    }

    void counted(long tasks) {
        total = tasks;
    }

    void progressed(BulkResult done) {
        progress = done;
    }

    void finished(BulkResult done) {
        progress = done;
        endedAt = Instant.now();
        state = State.FINISHED;
    }

    void failed(String why) {
        error = why;
        endedAt = Instant.now();
        state = State.FAILED;
    }
}
