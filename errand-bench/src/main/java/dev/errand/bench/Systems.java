package dev.errand.bench;

import dev.errand.bench.systems.DbSchedulerSystem;
import dev.errand.bench.systems.EntityQueueSystem;
import dev.errand.bench.systems.ErrandSystem;
import dev.errand.bench.systems.JobRunrSystem;
import dev.errand.bench.systems.RawSqlSystem;
import java.time.Duration;
import java.util.List;

/** Builds the systems under test by id, with the tuning every scenario uses. */
public final class Systems {

    /** Every system id, Errand's first. */
    public static final List<String> ALL = List.of(
            "errand",
            "errand-tx",
            "errand-history",
            "errand-tx-history",
            "errand-tx-group",
            "errand-tx-write",
            "errand-tx-group-write",
            "raw-sql",
            "raw-sql-tx",
            "raw-sql-tx-write",
            "db-scheduler",
            "jobrunr",
            "errand-jpa");

    /**
     * Errand with {@code schedules} schedules (default 10,000) on a one-minute cron registered, whose tasks
     * go to {@code sched-queue} (default {@code default}): compared with {@code errand} by the schedule
     * scenarios, and not one of {@link #ALL}.
     */
    public static final String SCHEDULES = "errand-schedules";

    /**
     * {@link #SCHEDULES} writing each slot when it comes ({@code scheduleLookahead(0)}), as Errand did before
     * the lookahead: all the schedules of a minute fire at the minute, paced by the firing share.
     */
    public static final String SCHEDULES_AT_SLOT = "errand-schedules-at-slot";

    /**
     * Errand with its handlers on virtual threads, non-transactional and transactional: compared with {@code errand}
     * and {@code errand-tx} by the virtual-threads groups, which run on Java 21 and later only, so not in
     * {@link #ALL}.
     */
    public static final List<String> VIRTUAL_THREADS = List.of("errand-vthreads", "errand-tx-vthreads");

    /** Whether {@code id} is one of the systems with schedules. */
    public static boolean hasSchedules(String id) {
        return SCHEDULES.equals(id) || SCHEDULES_AT_SLOT.equals(id);
    }

    private Systems() {}

    /**
     * Creates a system. Tuning: {@code poll-ms} (Errand and db-scheduler poll interval, default 100),
     * {@code lookahead-ms} (the schedule lookahead of {@link #SCHEDULES}, default Errand's 60,000),
     * {@code dbs-lower}/{@code dbs-upper} (db-scheduler lock-and-fetch limits, default 4.0/20.0, the
     * fractions of its README's benchmark; they beat the README's general high-throughput advice of
     * 1.0/4.0 here), {@code jobrunr-poll-ms} (default 5000, the smallest JobRunr open source accepts),
     * {@code jobrunr-workers} (default 20: JobRunr's workers do database work per job, and 20 beat 8
     * and 16 here), {@code raw-loops} (default 2, one per core), {@code group-commit} (the group size of {@code
     * errand-tx-group}, default 100).
     */
    public static BenchSystem create(String id, Db db, Params p) {
        Duration poll = Duration.ofMillis(p.integer("poll-ms", 100));
        return switch (id) {
            case "errand" -> new ErrandSystem(db, false, "bench_errand_", poll);
            case SCHEDULES ->
                new ErrandSystem(db, false, "bench_errand_", poll)
                        .withSchedules(p.integer("schedules", 10_000), p.get("sched-queue", "default"))
                        .lookahead(Duration.ofMillis(p.integer("lookahead-ms", 60_000)));
            case SCHEDULES_AT_SLOT ->
                new ErrandSystem(db, false, "bench_errand_", poll)
                        .withSchedules(p.integer("schedules", 10_000), p.get("sched-queue", "default"))
                        .atSlot();
            case "errand-tx" -> new ErrandSystem(db, true, "bench_errandtx_", poll);
            // The same with the attempt history on (the library's default is off): the pairing with
            // these measures what history costs.
            case "errand-history" -> new ErrandSystem(db, false, "bench_errandh_", poll).withHistory();
            case "errand-tx-history" -> new ErrandSystem(db, true, "bench_errandtxh_", poll).withHistory();
            // Transactional tasks with group commit (the library's default is one commit per task).
            case "errand-tx-group" ->
                new ErrandSystem(db, true, "bench_errandtxg_", poll).withGroupCommit(p.integer("group-commit", 100));
            // The same, and one commit per task, with a handler that inserts one row.
            case "errand-tx-write" -> new ErrandSystem(db, true, "bench_errandtxw_", poll).withWrites();
            case "errand-tx-group-write" ->
                new ErrandSystem(db, true, "bench_errandtxgw_", poll)
                        .withGroupCommit(p.integer("group-commit", 100))
                        .withWrites();
            // Handlers on virtual threads (Java 21 and later), against the default platform threads.
            case "errand-vthreads" -> new ErrandSystem(db, false, "bench_errandv_", poll).withVirtualThreads();
            case "errand-tx-vthreads" -> new ErrandSystem(db, true, "bench_errandtxv_", poll).withVirtualThreads();
            case "raw-sql" -> new RawSqlSystem(db, false, "bench_raw_", p.integer("raw-loops", 2));
            case "raw-sql-tx" -> new RawSqlSystem(db, true, "bench_rawtx_", p.integer("raw-loops", 2));
            case "raw-sql-tx-write" ->
                new RawSqlSystem(db, true, "bench_rawtxw_", p.integer("raw-loops", 2)).withWrites();
            case "db-scheduler" ->
                new DbSchedulerSystem(
                        db, "bench_dbs_tasks", poll, p.decimal("dbs-lower", 4.0), p.decimal("dbs-upper", 20.0));
            case "jobrunr" ->
                new JobRunrSystem(
                        db,
                        "bench_jr_",
                        Duration.ofMillis(p.integer("jobrunr-poll-ms", 5000)),
                        p.integer("jobrunr-workers", 20));
            case "errand-jpa" -> new EntityQueueSystem(db, poll);
            default ->
                throw new IllegalArgumentException("Unknown system '" + id + "'; known: " + ALL + ", " + SCHEDULES
                        + ", " + SCHEDULES_AT_SLOT + ", " + VIRTUAL_THREADS);
        };
    }
}
