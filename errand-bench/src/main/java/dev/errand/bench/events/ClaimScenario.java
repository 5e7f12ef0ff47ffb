package dev.errand.bench.events;

import dev.errand.bench.ClaimProbe;
import dev.errand.bench.Cpu;
import dev.errand.bench.Db;
import dev.errand.bench.Params;
import dev.errand.bench.Probe;
import dev.errand.bench.systems.ErrandSystem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Claim throughput beside waiting tasks: the burn-down of {@code n} pending no-op tasks (default 100,000)
 * on one node with 8 workers, on two sets of tables in one trial: one holds nothing else, the other also
 * holds {@code waiting} tasks (default 1,000,000), each waiting for an event of its own, with their
 * condition rows. The burn-downs alternate between the two (without, with, then with, without, …) for
 * {@code rounds} rounds (default 10), after a warm-up burn-down of {@code warm} tasks (default 20,000) on
 * each. Before each, the pending tasks are enqueued through the API and {@code VACUUM ANALYZE} runs,
 * neither timed.
 *
 * <p>The clock runs from the node's start until every task has run and no task is pending or running.
 * That last check counts through the partial claim and rescue indexes, so that it costs the same beside a
 * million waiting rows (the other scenarios' {@code state IN ('pending', 'running')} reads the whole table).
 * Before each burn-down the trial also times Errand's own claim statement of 100 tasks, {@code claims} times
 * (default 50) in rolled-back transactions, and in the first round keeps its plan beside the waiting tasks,
 * from {@code EXPLAIN (ANALYZE, BUFFERS)}.
 */
final class ClaimScenario {

    private static final long TIMEOUT_MS = 20 * 60_000L;

    private ClaimScenario() {}

    static Map<String, String> run(Db db, Params p) throws Exception {
        int n = p.integer("n", 100_000);
        int waiting = p.integer("waiting", 1_000_000);
        int rounds = p.integer("rounds", 10);
        int warm = p.integer("warm", 20_000);
        int workers = p.integer("workers", 8);
        int claims = p.integer("claims", 50);
        Duration poll = Duration.ofMillis(100);
        List<Double> without = new ArrayList<>();
        List<Double> with = new ArrayList<>();
        List<Double> claimWithout = new ArrayList<>();
        List<Double> claimWith = new ArrayList<>();
        List<Double> coresWithout = new ArrayList<>();
        List<Double> coresWith = new ArrayList<>();
        List<Double> busy = new ArrayList<>();
        String plan = "";
        Map<String, String> r = new LinkedHashMap<>();
        try (ErrandSystem none = new ErrandSystem(db, false, "bench_evnone_", poll);
                ErrandSystem beside = new ErrandSystem(db, false, "bench_evwait_", poll)) {
            none.setUp();
            beside.setUp();
            long insertBegin = System.nanoTime();
            WaitingRows.insert(db, "bench_evwait_", waiting, "wait", true);
            r.put("waiting_insert_s", Samples.fmt((System.nanoTime() - insertBegin) / 1e9));
            db.execute("VACUUM ANALYZE bench_evwait_task_condition");
            for (ErrandSystem system : List.of(none, beside)) {
                burnDown(db, system, warm, workers);
            }
            for (int round = 1; round <= rounds; round++) {
                List<ErrandSystem> order = round % 2 == 1 ? List.of(none, beside) : List.of(beside, none);
                for (ErrandSystem system : order) {
                    boolean besideWaiting = system == beside;
                    fill(db, system, n);
                    // Errand's claim statement alone, in rolled-back transactions, on the filled table.
                    boolean explain = round == 1 && besideWaiting;
                    Map<String, String> claim = ClaimProbe.measure(db, system.taskTable(), claims, explain);
                    (besideWaiting ? claimWith : claimWithout).add(Double.parseDouble(claim.get("claim_ms")));
                    if (explain) {
                        plan = claim.getOrDefault("plan", "");
                    }
                    busy.add(Samples.awaitQuiet(p));
                    double[] burn = measure(db, system, n, workers);
                    (besideWaiting ? with : without).add(burn[0]);
                    (besideWaiting ? coresWith : coresWithout).add(burn[1]);
                }
            }
            long left = db.queryLong("SELECT count(*) FROM bench_evwait_task WHERE state = 'waiting'");
            if (left != waiting) {
                throw new IllegalStateException(waiting + " waiting tasks inserted, " + left + " left");
            }
        }
        r.put("n", Integer.toString(n));
        r.put("waiting", Integer.toString(waiting));
        r.put("rounds", Integer.toString(rounds));
        TriggerScenario.put(r, "rate_without", without);
        TriggerScenario.put(r, "rate_with", with);
        r.put("with_over_without", Samples.fmt(Samples.median(with) / Samples.median(without)));
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(with.size(), without.size()); i++) {
            ratios.add(with.get(i) / without.get(i));
        }
        r.put("with_over_without_per_round", Samples.list(ratios));
        TriggerScenario.put(r, "claim_ms_without", claimWithout);
        TriggerScenario.put(r, "claim_ms_with", claimWith);
        r.put("machine_cores_without_all", Samples.list(coresWithout));
        r.put("machine_cores_with_all", Samples.list(coresWith));
        r.put("others_busy_cores", Samples.list(busy));
        // The plan is long: last, so that the report's trial table stays readable.
        r.put("plan", plan);
        return r;
    }

    private static void fill(Db db, ErrandSystem system, int n) throws Exception {
        system.prefill(n);
        db.execute("VACUUM ANALYZE " + system.taskTable());
    }

    /** A burn-down of a small backlog, not measured: the JIT compiles the hot paths. */
    private static void burnDown(Db db, ErrandSystem system, int n, int workers) throws Exception {
        if (n > 0) {
            fill(db, system, n);
            measure(db, system, n, workers);
        }
    }

    /**
     * Runs the filled table's {@code n} tasks to completion; returns tasks per second and the cores the
     * whole machine (this JVM, PostgreSQL and anything else) kept busy meanwhile.
     */
    private static double[] measure(Db db, ErrandSystem system, int n, int workers) throws Exception {
        Probe probe = new Probe(0);
        system.prepareWorkers(workers, probe);
        Cpu cpu = Cpu.start();
        long begin = System.nanoTime();
        system.startWorkers();
        probe.awaitRuns(n, TIMEOUT_MS);
        String table = system.taskTable();
        long deadline = System.currentTimeMillis() + TIMEOUT_MS;
        while (db.queryLong("SELECT (SELECT count(*) FROM " + table + " WHERE state = 'pending') + (SELECT count(*)"
                        + " FROM " + table + " WHERE state = 'running')")
                > 0) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException(table + " still has unfinished tasks");
            }
            Thread.sleep(2);
        }
        double seconds = (System.nanoTime() - begin) / 1e9;
        double machine = cpu.machineCores();
        System.out.printf(
                "[events-claim] %s: %,d tasks in %.2f s, machine %.2f cores, this JVM %.2f%n",
                table, n, seconds, machine, cpu.processCores());
        system.stopWorkers();
        return new double[] {n / seconds, machine};
    }
}
