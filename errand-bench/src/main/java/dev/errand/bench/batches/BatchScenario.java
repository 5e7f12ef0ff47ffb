package dev.errand.bench.batches;

import dev.errand.bench.Cpu;
import dev.errand.bench.Db;
import dev.errand.bench.Params;
import dev.errand.bench.Probe;
import dev.errand.bench.report.Figures;
import dev.errand.bench.systems.ErrandSystem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A batch against a plain burn-down, in one trial on one set of tables: {@code n} no-op tasks (default
 * 100,000) enqueued as plain tasks, or as one batch whose {@code COMPLETE} callback is one more no-op task,
 * then run by one node with 8 workers (non-transactional, Errand's defaults). The two alternate (plain,
 * batch, then batch, plain, …) for {@code rounds} rounds (default 6), after an unmeasured warm-up of each
 * of {@code warm} tasks (default 20,000). Enqueueing and {@code VACUUM ANALYZE} before each run are not
 * timed.
 *
 * <p>The plain run's clock stops when every task has run and none is pending or running; the batch's when
 * its callback task has run, which is only enqueued once the batch's counters say every task finished. The
 * trial checks that each batch fired its callback exactly once and counted {@code n} successes.
 */
final class BatchScenario {

    private static final long TIMEOUT_MS = 20 * 60_000L;

    private BatchScenario() {}

    static Map<String, String> run(Db db, Params p) throws Exception {
        int n = p.integer("n", 100_000);
        int rounds = p.integer("rounds", 6);
        int warm = p.integer("warm", 20_000);
        int workers = p.integer("workers", 8);
        List<Double> plain = new ArrayList<>();
        List<Double> batch = new ArrayList<>();
        List<Double> cores = new ArrayList<>();
        List<Double> busy = new ArrayList<>();
        try (ErrandSystem system = new ErrandSystem(db, false, "bench_batch_", Duration.ofMillis(100))) {
            system.setUp();
            measurePlain(db, system, warm, workers);
            measureBatch(db, system, warm, workers);
            for (int round = 1; round <= rounds; round++) {
                boolean plainFirst = round % 2 == 1;
                for (int i = 0; i < 2; i++) {
                    boolean isPlain = (i == 0) == plainFirst;
                    busy.add(awaitQuiet(p));
                    double[] run =
                            isPlain ? measurePlain(db, system, n, workers) : measureBatch(db, system, n, workers);
                    (isPlain ? plain : batch).add(run[0]);
                    cores.add(run[1]);
                }
            }
        }
        Map<String, String> r = new LinkedHashMap<>();
        r.put("n", Integer.toString(n));
        r.put("rounds", Integer.toString(rounds));
        put(r, "rate_plain", plain);
        put(r, "rate_batch", batch);
        r.put("batch_over_plain", fmt(median(batch) / median(plain)));
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(plain.size(), batch.size()); i++) {
            ratios.add(batch.get(i) / plain.get(i));
        }
        r.put("batch_over_plain_per_round", list(ratios));
        r.put("machine_cores_all", list(cores));
        r.put("others_busy_cores", list(busy));
        return r;
    }

    private static double[] measurePlain(Db db, ErrandSystem system, int n, int workers) throws Exception {
        system.prefill(n);
        db.execute("VACUUM ANALYZE " + system.taskTable());
        Probe probe = new Probe(0);
        system.prepareWorkers(workers, probe);
        Cpu cpu = Cpu.start();
        long begin = System.nanoTime();
        system.startWorkers();
        probe.awaitRuns(n, TIMEOUT_MS);
        awaitNothingLeft(db, system.taskTable());
        return finish(system, "plain", n, begin, cpu);
    }

    private static double[] measureBatch(Db db, ErrandSystem system, int n, int workers) throws Exception {
        long batchId = system.enqueueAsBatch(n);
        db.execute("VACUUM ANALYZE " + system.taskTable());
        Probe probe = new Probe(0);
        system.prepareWorkers(workers, probe);
        Cpu cpu = Cpu.start();
        long begin = System.nanoTime();
        system.startWorkers();
        // n members and the callback.
        probe.awaitRuns(n + 1L, TIMEOUT_MS);
        awaitNothingLeft(db, system.taskTable());
        double[] result = finish(system, "batch", n, begin, cpu);
        long fired = db.queryLong("SELECT count(*) FROM bench_batch_batch_fired WHERE batch_id = " + batchId);
        long counted = db.queryLong("SELECT sum(succeeded) FROM bench_batch_batch_counter WHERE batch_id = " + batchId);
        if (fired != 1 || counted != n || probe.runs() != n + 1L) {
            throw new IllegalStateException("Batch " + batchId + ": " + fired + " callbacks fired, " + counted
                    + " successes counted, " + probe.runs() + " runs; expected 1, " + n + ", " + (n + 1));
        }
        return result;
    }

    private static void awaitNothingLeft(Db db, String table) throws Exception {
        long deadline = System.currentTimeMillis() + TIMEOUT_MS;
        while (db.queryLong("SELECT (SELECT count(*) FROM " + table + " WHERE state = 'pending') + (SELECT count(*)"
                        + " FROM " + table + " WHERE state = 'running')")
                > 0) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException(table + " still has unfinished tasks");
            }
            Thread.sleep(2);
        }
    }

    private static double[] finish(ErrandSystem system, String what, int n, long begin, Cpu cpu) {
        double seconds = (System.nanoTime() - begin) / 1e9;
        double machine = cpu.machineCores();
        System.out.printf(
                Locale.ROOT,
                "[batch-burn] %s: %,d tasks in %.2f s (%.0f/s), machine %.2f cores, this JVM %.2f%n",
                what,
                n,
                seconds,
                n / seconds,
                machine,
                cpu.processCores());
        system.stopWorkers();
        return new double[] {n / seconds, machine};
    }

    private static double awaitQuiet(Params p) throws InterruptedException {
        double quiet = p.decimal("quiet-cores", 0.7);
        int waitSeconds = p.integer("quiet-wait-s", 0);
        long deadline = System.nanoTime() + waitSeconds * 1_000_000_000L;
        double busy = Cpu.busyCoresOver(waitSeconds == 0 ? 200 : 1_000);
        while (busy > quiet && System.nanoTime() < deadline) {
            Thread.sleep(3_000);
            busy = Cpu.busyCoresOver(2_000);
        }
        return busy;
    }

    private static void put(Map<String, String> r, String key, List<Double> values) {
        r.put(key, fmt(median(values)));
        r.put(
                key + "_min",
                fmt(values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN)));
        r.put(
                key + "_max",
                fmt(values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN)));
        r.put(key + "_all", list(values));
    }

    private static double median(List<Double> values) {
        return Figures.median(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    private static String list(List<Double> values) {
        return values.stream().map(BatchScenario::fmt).collect(Collectors.joining(","));
    }

    private static String fmt(double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }
}
