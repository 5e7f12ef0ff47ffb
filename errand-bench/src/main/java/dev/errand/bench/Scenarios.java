package dev.errand.bench;

import dev.errand.bench.events.EventScenarios;
import dev.errand.bench.systems.ErrandSystem;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The end-to-end scenarios. Each runs one system from empty tables to dropped tables and returns its
 * figures; rates are tasks per second. No scenario times its set-up (creating tables, filling a backlog).
 */
public final class Scenarios {

    private static final long TIMEOUT_MS = TimeUnit.MINUTES.toMillis(20);

    private Scenarios() {}

    /** Runs the scenario named by {@code p.scenario}. */
    public static Map<String, String> run(Db db, Params p) throws Exception {
        String scenario = p.require("scenario");
        if (EventScenarios.NAMES.contains(scenario)) {
            return EventScenarios.run(db, p);
        }
        if (dev.errand.bench.batches.BatchScenarios.NAMES.contains(scenario)) {
            return dev.errand.bench.batches.BatchScenarios.run(db, p);
        }
        try (BenchSystem system = Systems.create(p.require("system"), db, p)) {
            Map<String, String> result =
                    switch (scenario) {
                        case "burn-down" -> burnDown(db, system, p);
                        case "steady" -> steady(system, p);
                        case "enqueue" -> enqueue(system, p);
                        case "latency" -> latency(system, p);
                        case "backlog" -> backlog(db, system, p);
                        case "claim-plan" -> ClaimProbe.claimPlan(db, system, p);
                        case "heap" -> heap(system, p);
                        case "nodes" -> MultiNode.run(db, system, p);
                        case "schedules" -> ScheduleScenarios.claim(db, system, p);
                        case "schedule-cost" -> ScheduleScenarios.cost(db, system, p);
                        default -> throw new IllegalArgumentException("Unknown scenario " + scenario);
                    };
            system.tearDown();
            return result;
        }
    }

    /** Scenario 1: {@code n} pending tasks first, then the time until all are complete on one node. */
    static Map<String, String> burnDown(Db db, BenchSystem system, Params p) throws Exception {
        int n = p.integer("n", 100_000);
        int workers = p.integer("workers", 8);
        system.setUp();
        warmUp(system, p.integer("warm", 5_000), workers);
        system.prefill(n);
        db.analyze(system.taskTable());
        Probe probe = new Probe(0);
        system.prepareWorkers(workers, probe);
        String jfr = p.get("jfr", "");
        Profiler profiler = jfr.isEmpty() ? null : Profiler.start(Path.of(jfr));
        Cpu cpu = Cpu.start();
        long begin = System.nanoTime();
        system.startWorkers();
        probe.awaitRuns(n, TIMEOUT_MS);
        awaitDrained(system);
        double seconds = (System.nanoTime() - begin) / 1e9;
        double machine = cpu.machineCores();
        double jvm = cpu.processCores();
        if (profiler != null) {
            profiler.close();
        }
        system.stopWorkers();
        Map<String, String> r = new LinkedHashMap<>();
        r.put("rate", fmt(n / seconds));
        r.put("seconds", fmt(seconds));
        r.put("machine_cores", fmt(machine));
        r.put("jvm_cores", fmt(jvm));
        return r;
    }

    /** Runs a small backlog to completion so that the JIT has compiled the hot paths. */
    static void warmUp(BenchSystem system, int warm, int workers) throws Exception {
        if (warm <= 0) {
            return;
        }
        system.prefill(warm);
        Probe probe = new Probe(0);
        system.prepareWorkers(workers, probe);
        system.startWorkers();
        probe.awaitRuns(warm, TIMEOUT_MS);
        awaitDrained(system);
        system.stopWorkers();
    }

    static void awaitDrained(BenchSystem system) throws Exception {
        long deadline = System.currentTimeMillis() + TIMEOUT_MS;
        while (system.remaining() > 0) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException(system.id() + " still has " + system.remaining() + " tasks");
            }
            Thread.sleep(2);
        }
    }

    /** Scenario 2: one producer enqueues batches as fast as it can while the node consumes. */
    static Map<String, String> steady(BenchSystem system, Params p) throws Exception {
        int workers = p.integer("workers", 8);
        int batch = p.integer("batch", 100);
        long warmMs = p.integer("warm-ms", 3_000);
        long measureMs = p.integer("measure-ms", 15_000);
        system.setUp();
        Probe probe = new Probe(0);
        system.prepareWorkers(workers, probe);
        system.startWorkers();
        AtomicBoolean producing = new AtomicBoolean(true);
        AtomicLong produced = new AtomicLong();
        Thread producer = new Thread(
                () -> {
                    try {
                        while (producing.get()) {
                            system.enqueueBatch(batch);
                            produced.addAndGet(batch);
                        }
                    } catch (Exception e) {
                        System.err.println("producer failed: " + e);
                    }
                },
                "bench-producer");
        producer.start();
        Thread.sleep(warmMs);
        long runs0 = probe.runs();
        long produced0 = produced.get();
        Cpu cpu = Cpu.start();
        long begin = System.nanoTime();
        Thread.sleep(measureMs);
        long runs1 = probe.runs();
        long produced1 = produced.get();
        double seconds = (System.nanoTime() - begin) / 1e9;
        double machine = cpu.machineCores();
        producing.set(false);
        producer.join(60_000);
        long backlog = system.remaining();
        system.stopWorkers();
        Map<String, String> r = new LinkedHashMap<>();
        r.put("rate", fmt((runs1 - runs0) / seconds));
        r.put("produced_rate", fmt((produced1 - produced0) / seconds));
        r.put("backlog_at_end", Long.toString(backlog));
        r.put("machine_cores", fmt(machine));
        return r;
    }

    /** Scenario 3: single enqueues, each in its own transaction, then batch enqueues; no worker runs. */
    static Map<String, String> enqueue(BenchSystem system, Params p) throws Exception {
        int singles = p.integer("singles", 2_000);
        int batchTotal = p.integer("batch-total", 100_000);
        int batchSize = p.integer("batch-size", 1_000);
        system.setUp();
        // Warm both paths as much as they are measured: 100 batches of 1,000 run interpreted code for a
        // good part of a cold JVM's first pass (Errand's first 100,000 enqueued at about 40% of the rate
        // of its second 100,000), and the trial is meant to compare steady-state code.
        for (int i = 0; i < Math.min(500, singles); i++) {
            system.enqueueOne(0);
        }
        for (int done = 0; done < batchTotal; done += batchSize) {
            system.enqueueBatch(batchSize);
        }
        long begin = System.nanoTime();
        for (int i = 0; i < singles; i++) {
            system.enqueueOne(0);
        }
        double singleRate = singles / ((System.nanoTime() - begin) / 1e9);
        begin = System.nanoTime();
        for (int done = 0; done < batchTotal; done += batchSize) {
            system.enqueueBatch(batchSize);
        }
        double batchRate = batchTotal / ((System.nanoTime() - begin) / 1e9);
        Map<String, String> r = new LinkedHashMap<>();
        r.put("single_rate", fmt(singleRate));
        r.put("batch_rate", fmt(batchRate));
        r.put("batch_size", Integer.toString(batchSize));
        return r;
    }

    /** Scenario 4: one task every {@code interval-ms}; the delay from enqueue call to handler start. */
    static Map<String, String> latency(BenchSystem system, Params p) throws Exception {
        int count = p.integer("count", 500);
        int intervalMs = p.integer("interval-ms", 20);
        int workers = p.integer("workers", 8);
        system.setUp();
        Probe probe = new Probe(count + 100);
        system.prepareWorkers(workers, probe);
        system.startWorkers();
        Thread.sleep(1_000);
        int warm = Math.min(50, count / 2);
        for (int i = 0; i < warm; i++) {
            system.enqueueOne(System.nanoTime());
            Thread.sleep(intervalMs);
        }
        probe.awaitRuns(warm, TIMEOUT_MS);
        probe.resetLatencies();
        long before = probe.runs();
        // How long the enqueue itself takes (its insert and commit), the part of the latency before the task is
        // visible to any worker.
        long[] enqueues = new long[count];
        for (int i = 0; i < count; i++) {
            long stamp = System.nanoTime();
            system.enqueueOne(stamp);
            enqueues[i] = System.nanoTime() - stamp;
            Thread.sleep(intervalMs);
        }
        probe.awaitRuns(before + count, TIMEOUT_MS);
        system.stopWorkers();
        long[] sorted = probe.sortedLatencies();
        java.util.Arrays.sort(enqueues);
        Map<String, String> r = new LinkedHashMap<>();
        r.put("enqueue_p50_ms", fmt(Probe.quantile(enqueues, 0.50) / 1e6));
        r.put("p50_ms", fmt(Probe.quantile(sorted, 0.50) / 1e6));
        r.put("p95_ms", fmt(Probe.quantile(sorted, 0.95) / 1e6));
        r.put("p99_ms", fmt(Probe.quantile(sorted, 0.99) / 1e6));
        r.put("max_ms", fmt(sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6));
        r.put("samples", Integer.toString(sorted.length));
        return r;
    }

    /**
     * Scenario 5: throughput while the pending backlog stays near {@code backlog}: a feeder tops it up as
     * tasks complete, so the claim always searches a table of that size.
     */
    static Map<String, String> backlog(Db db, BenchSystem system, Params p) throws Exception {
        int backlog = p.integer("backlog", 10_000);
        int workers = p.integer("workers", 8);
        long warmMs = p.integer("warm-ms", 3_000);
        long measureMs = p.integer("measure-ms", 10_000);
        int topUp = Math.max(50, Math.min(2_000, backlog / 5));
        system.setUp();
        system.prefill(backlog);
        db.analyze(system.taskTable());
        Map<String, String> r = new LinkedHashMap<>();
        if (system instanceof ErrandSystem) {
            r.putAll(ClaimProbe.measure(db, system.taskTable(), p.integer("claims", 20), false));
        }
        Probe probe = new Probe(0);
        system.prepareWorkers(workers, probe);
        system.startWorkers();
        AtomicBoolean feeding = new AtomicBoolean(true);
        Thread feeder = new Thread(
                () -> {
                    long fed = 0;
                    try {
                        while (feeding.get()) {
                            long deficit = probe.runs() - fed;
                            if (deficit >= topUp) {
                                system.prefill((int) deficit);
                                fed += deficit;
                            } else {
                                Thread.sleep(5);
                            }
                        }
                    } catch (Exception e) {
                        if (feeding.get()) {
                            System.err.println("feeder failed: " + e);
                        }
                    }
                },
                "bench-feeder");
        feeder.start();
        Thread.sleep(warmMs);
        long runs0 = probe.runs();
        long begin = System.nanoTime();
        Thread.sleep(measureMs);
        long runs1 = probe.runs();
        double seconds = (System.nanoTime() - begin) / 1e9;
        long pending = system.remaining();
        feeding.set(false);
        feeder.join(60_000);
        system.stopWorkers();
        r.put("rate", fmt((runs1 - runs0) / seconds));
        r.put("pending_at_end", Long.toString(pending));
        return r;
    }

    /**
     * The engine's own heap with a backlog: heap used after a full GC with the node built but stopped,
     * then again while it works through the backlog.
     */
    static Map<String, String> heap(BenchSystem system, Params p) throws Exception {
        int n = p.integer("n", 100_000);
        int workers = p.integer("workers", 8);
        system.setUp();
        system.prefill(n);
        Probe probe = new Probe(0);
        system.prepareWorkers(workers, probe);
        long idle = usedHeapAfterGc();
        system.startWorkers();
        probe.awaitRuns(Math.min(n / 10, 10_000), TIMEOUT_MS);
        long running = usedHeapAfterGc();
        long pending = system.remaining();
        system.stopWorkers();
        Map<String, String> r = new LinkedHashMap<>();
        r.put("heap_idle_mb", fmt(idle / 1048576.0));
        r.put("heap_running_mb", fmt(running / 1048576.0));
        r.put("engine_heap_mb", fmt(Math.max(0, running - idle) / 1048576.0));
        r.put("backlog_at_sample", Long.toString(pending));
        return r;
    }

    static long usedHeapAfterGc() throws InterruptedException {
        var memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return memory.getHeapMemoryUsage().getUsed();
    }

    static String fmt(double value) {
        return String.format(java.util.Locale.ROOT, "%.3f", value);
    }
}
