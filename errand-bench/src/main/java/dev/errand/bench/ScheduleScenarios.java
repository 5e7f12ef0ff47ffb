package dev.errand.bench;

import dev.errand.bench.systems.ErrandSystem;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The cost of recurring schedules, for {@code errand} (none) against {@code errand-schedules} (10,000 on a
 * one-minute cron by default). Both run the worker node with its scheduler thread metered
 * ({@link SchedulerMeter}); the measured window contains a slot at which every schedule fires.
 *
 * <p>Where the slot is: {@code align=minute} (the full profile) puts it on a real minute boundary, as the
 * cron has it, and waits for that minute; {@code align=soon} (the smoke profile) puts it a moment after the
 * node starts, by moving every schedule's {@code next_run_at} there, so the trial lasts seconds.
 */
final class ScheduleScenarios {

    private static final long MINUTE_MS = 60_000;
    private static final long SAMPLE_MS = 100;

    private ScheduleScenarios() {}

    /**
     * Claiming while the schedules fire: a backlog of {@code n} no-op tasks burns down on one node; the
     * window of {@code measure-ms} starts after {@code warm-ms} and holds the slot {@code boundary-ms} after
     * its start. The plans send the schedules' tasks to a queue the node does not run ({@code
     * sched-queue=bench-scheduled}), so that the rate counts the backlog only and the slot's tasks can be
     * counted afterwards; in the backlog's queue they would sort after it anyway (same priority, later
     * {@code run_at}). Figures: the rate over the window, before the slot, in the {@code after-ms} after it, and
     * the 3 s from it, the slowest whole second and the slowest 3 seconds; the firing transactions in the
     * window, from the first to the last, and when the last ended against the slot. With the lookahead the
     * schedules write all the time, a few each poll, so these span the window; at the slot they are a burst.
     */
    static Map<String, String> claim(Db db, BenchSystem system, Params p) throws Exception {
        ErrandSystem errand = errand(system);
        int n = p.integer("n", 2_500_000);
        int workers = p.integer("workers", 8);
        long warmMs = p.integer("warm-ms", 5_000);
        long measureMs = p.integer("measure-ms", 25_000);
        long boundaryMs = p.integer("boundary-ms", 5_000);
        long afterMs = p.integer("after-ms", 10_000);
        boolean minute = p.get("align", "minute").equals("minute");
        errand.meterScheduler();
        errand.setUp();
        errand.prefill(n);
        db.execute("VACUUM ANALYZE " + errand.taskTable(), "VACUUM ANALYZE " + errand.scheduleTable());
        Probe probe = new Probe(0);
        errand.prepareWorkers(workers, probe);

        long lead = warmMs + boundaryMs;
        long slot = minute ? nextMinute(System.currentTimeMillis() + lead + 2_000) : System.currentTimeMillis() + lead;
        if (errand.schedules() > 0) {
            errand.steadyAt(slot, slot - lead);
        }
        sleepUntil(slot - lead);
        errand.startWorkers();
        long windowStart = slot - boundaryMs;
        sleepUntil(windowStart);
        SchedulerMeter meter = errand.meter();
        long offset = System.nanoTime() - System.currentTimeMillis() * 1_000_000;
        Cpu cpu = Cpu.start();
        Map<Long, Long> threads0 = threadCpu();
        long threadCpu0 = meter.threadCpuNanos();
        List<long[]> samples = new ArrayList<>(); // {epoch ms, nanoTime, runs}
        long windowEnd = windowStart + measureMs;
        for (long next = windowStart; next <= windowEnd; next += SAMPLE_MS) {
            sleepUntil(next);
            samples.add(new long[] {next, System.nanoTime(), probe.runs()});
        }
        double machine = cpu.machineCores();
        double jvm = cpu.processCores();
        long threadCpu = meter.threadCpuNanos() - threadCpu0;
        String busiestThreads = busiestThreads(threads0, threadCpu(), 6);
        long pending = errand.remaining();
        awaitNothingDue(db, errand); // so that the slot's count below is final
        errand.stopWorkers();
        long slotTasks = slotTasks(db, errand, slot);

        Map<String, String> r = new LinkedHashMap<>();
        r.put("rate", Scenarios.fmt(rate(samples, windowStart, windowEnd)));
        r.put("rate_before", Scenarios.fmt(rate(samples, windowStart, slot)));
        r.put("rate_after", Scenarios.fmt(rate(samples, slot, Math.min(windowEnd, slot + afterMs))));
        r.put("rate_slot_3s", Scenarios.fmt(rate(samples, slot, Math.min(windowEnd, slot + 3_000))));
        r.put("rate_min_1s", Scenarios.fmt(slowestSecond(samples)));
        r.put("rate_min_3s", Scenarios.fmt(slowestSeconds(samples, 3)));
        r.put("rates_1s", String.join("/", perSecond(samples)));
        r.put("schedules", Integer.toString(errand.schedules()));
        r.put("slot_tasks", Long.toString(slotTasks));
        r.put("written", Long.toString(written(db, errand, windowStart, windowEnd)));
        r.putAll(Window.of(
                        meter.transactions(),
                        windowStart * 1_000_000 + offset,
                        windowEnd * 1_000_000 + offset,
                        slot * 1_000_000 + offset,
                        threadCpu)
                .figures());
        r.put("pending_at_end", Long.toString(pending));
        r.put("machine_cores", Scenarios.fmt(machine));
        r.put("jvm_cores", Scenarios.fmt(jvm));
        r.put("threads_cpu_ms", busiestThreads);
        return r;
    }

    /** CPU time of every live thread of this JVM, by id. */
    static Map<Long, Long> threadCpu() {
        var bean = java.lang.management.ManagementFactory.getThreadMXBean();
        Map<Long, Long> cpu = new HashMap<>();
        for (long id : bean.getAllThreadIds()) {
            cpu.put(id, bean.getThreadCpuTime(id));
        }
        return cpu;
    }

    /**
     * The threads that used the most CPU between two readings, grouped by name with digits replaced by
     * {@code #} (so a pool's threads add up): {@code name:ms/name:ms/...}.
     */
    static String busiestThreads(Map<Long, Long> before, Map<Long, Long> after, int top) {
        var bean = java.lang.management.ManagementFactory.getThreadMXBean();
        Map<String, Long> byName = new HashMap<>();
        after.forEach((id, cpu) -> {
            var info = bean.getThreadInfo(id);
            if (info != null && cpu >= 0) {
                String name = info.getThreadName().replaceAll("[0-9]+", "#");
                byName.merge(name, cpu - Math.max(0, before.getOrDefault(id, 0L)), Long::sum);
            }
        });
        return byName.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(top)
                .map(e -> e.getKey() + ":" + Math.round(e.getValue() / 1e6))
                .collect(Collectors.joining("/"));
    }

    /**
     * The scheduler's cost per slot on an otherwise idle node: {@code warm-slots} slots fire unmeasured,
     * then {@code slots} windows of {@code window-ms} (a minute with {@code align=minute}) each hold one slot
     * {@code lead-ms} after their start. Per window: the firing sweep, the scheduler thread's transactions,
     * statements, CPU time and connection time, the PostgreSQL CPU time of those transactions, and the CPU
     * time of the whole node (its JVM and every backend of its pool). Each figure is the median over the
     * windows; {@code *_each} lists every window's.
     */
    static Map<String, String> cost(Db db, BenchSystem system, Params p) throws Exception {
        ErrandSystem errand = errand(system);
        int slots = p.integer("slots", 2);
        int warmSlots = p.integer("warm-slots", 1);
        boolean minute = p.get("align", "minute").equals("minute");
        long windowMs = minute ? MINUTE_MS : p.integer("window-ms", 1_500);
        long leadMs = p.integer("lead-ms", 2_000);
        errand.meterScheduler();
        errand.setUp();
        Probe probe = new Probe(0);
        errand.prepareWorkers(p.integer("workers", 8), probe);
        long first = minute ? nextMinute(System.currentTimeMillis() + 3_000) : System.currentTimeMillis() + 500;
        if (errand.schedules() > 0) {
            errand.steadyAt(first, System.currentTimeMillis());
        }
        errand.startWorkers();
        SchedulerMeter meter = errand.meter();
        List<Map<String, String>> windows = new ArrayList<>();
        for (int k = 0; k < warmSlots + slots; k++) {
            long slot = first + k * windowMs;
            long start = slot - leadMs;
            sleepUntil(start);
            if (!minute && k > 0 && errand.schedules() > 0) {
                awaitNothingDue(db, errand); // never move a slot that has not fired yet
                errand.steadyAt(slot, System.currentTimeMillis()); // the cron's own next slot is a minute away
            }
            long startNanos = System.nanoTime();
            long threadCpu0 = meter.threadCpuNanos();
            long jvmCpu0 = Cpu.processNanos();
            Map<Integer, Long> backends0 = backendCpu(db, errand.workerPoolName());
            sleepUntil(start + windowMs);
            long endNanos = System.nanoTime();
            long threadCpu = meter.threadCpuNanos() - threadCpu0;
            long jvmCpu = Cpu.processNanos() - jvmCpu0;
            long backends = delta(backends0, backendCpu(db, errand.workerPoolName()));
            if (k < warmSlots) {
                continue;
            }
            Map<String, String> w = Window.of(
                            meter.transactions(),
                            startNanos,
                            endNanos,
                            startNanos + (slot - start) * 1_000_000,
                            threadCpu)
                    .figures();
            w.put("written", Long.toString(written(db, errand, start, start + windowMs)));
            w.put("jvm_cpu_ms", Scenarios.fmt(jvmCpu / 1e6));
            w.put("backends_cpu_ms", Scenarios.fmt(backends / 1e6));
            w.put("node_cpu_ms", Scenarios.fmt((jvmCpu + backends) / 1e6));
            windows.add(w);
        }
        errand.stopWorkers();
        Map<String, String> r = new LinkedHashMap<>();
        r.put("schedules", Integer.toString(errand.schedules()));
        r.put("window_s", Scenarios.fmt(windowMs / 1e3));
        r.put("windows", Integer.toString(windows.size()));
        java.util.Set<String> keys = new java.util.LinkedHashSet<>();
        windows.forEach(w -> keys.addAll(w.keySet()));
        for (String key : keys) {
            double[] each =
                    windows.stream().mapToDouble(w -> number(w.get(key))).toArray();
            r.put(key, Scenarios.fmt(median(each)));
            if (windows.size() > 1) {
                r.put(
                        key + "_each",
                        Arrays.stream(each).mapToObj(Scenarios::fmt).collect(Collectors.joining("/")));
            }
        }
        return r;
    }

    /** The scheduler's work in one window, from the meter's transactions that started in it. */
    record Window(
            List<SchedulerMeter.Tx> all,
            List<SchedulerMeter.Tx> firing,
            long slotNanos,
            long threadCpu,
            long windowNanos) {

        static Window of(
                List<SchedulerMeter.Tx> transactions, long startNanos, long endNanos, long slotNanos, long threadCpu) {
            List<SchedulerMeter.Tx> all = transactions.stream()
                    .filter(t -> t.startNanos() >= startNanos && t.startNanos() < endNanos)
                    .toList();
            List<SchedulerMeter.Tx> firing =
                    all.stream().filter(t -> t.inserts() > 0).toList();
            return new Window(all, firing, slotNanos, threadCpu, endNanos - startNanos);
        }

        Map<String, String> figures() {
            Map<String, String> r = new LinkedHashMap<>();
            int fired = firing.stream().mapToInt(SchedulerMeter.Tx::inserts).sum();
            r.put("fired", Integer.toString(fired));
            if (!firing.isEmpty()) {
                long first = firing.get(0).startNanos();
                long last = firing.get(firing.size() - 1).endNanos();
                r.put("sweep_ms", Scenarios.fmt((last - first) / 1e6));
                r.put("sweep_start_ms", Scenarios.fmt((first - slotNanos) / 1e6));
                r.put("lag_ms", Scenarios.fmt((last - slotNanos) / 1e6));
                r.put("sweep_tx", Integer.toString(firing.size()));
                r.put("sweep_busy_ms", Scenarios.fmt(sum(firing, t -> t.endNanos() - t.startNanos()) / 1e6));
                r.put("sweep_cpu_ms", Scenarios.fmt(sum(firing, SchedulerMeter.Tx::jvmCpuNanos) / 1e6));
                r.put("sweep_db_cpu_ms", Scenarios.fmt(sum(firing, SchedulerMeter.Tx::dbCpuNanos) / 1e6));
            }
            long busy = sum(all, t -> t.endNanos() - t.startNanos());
            long db = sum(all, SchedulerMeter.Tx::dbCpuNanos);
            r.put("sched_tx", Integer.toString(all.size()));
            r.put("sched_statements", Long.toString(sum(all, t -> (long) t.statements())));
            r.put("sched_commits", Long.toString(sum(all, t -> (long) t.commits())));
            r.put("sched_busy_ms", Scenarios.fmt(busy / 1e6));
            r.put("sched_cpu_ms", Scenarios.fmt(threadCpu / 1e6));
            r.put("sched_db_cpu_ms", Scenarios.fmt(db / 1e6));
            r.put("sched_connection_share", Scenarios.fmt((double) busy / windowNanos));
            r.put("sched_core_share", Scenarios.fmt((double) (threadCpu + db) / windowNanos));
            return r;
        }

        private static long sum(List<SchedulerMeter.Tx> list, java.util.function.ToLongFunction<SchedulerMeter.Tx> f) {
            return list.stream().mapToLong(f).sum();
        }
    }

    private static ErrandSystem errand(BenchSystem system) {
        if (system instanceof ErrandSystem errand && !system.id().equals("errand-tx")) {
            return errand;
        }
        throw new IllegalArgumentException("The schedule scenarios run errand, " + Systems.SCHEDULES + " and "
                + Systems.SCHEDULES_AT_SLOT + " only");
    }

    /** Waits (up to a minute) until the node has fired every due schedule. */
    private static void awaitNothingDue(Db db, ErrandSystem errand) throws InterruptedException {
        long deadline = System.currentTimeMillis() + MINUTE_MS;
        while (db.queryLong("SELECT count(*) FROM " + errand.scheduleTable() + " WHERE fire_at <= now()") > 0
                && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
    }

    /**
     * Schedule tasks written between two moments (epoch ms), by their {@code created_at}: the tasks stay, in a
     * queue no node runs, so the count is exact. One firing transaction writes many in one statement, so the
     * meter's insert count ({@code fired}) counts statements, not tasks.
     */
    private static long written(Db db, ErrandSystem errand, long fromMillis, long toMillis) {
        return db.queryLong("SELECT count(*) FROM " + errand.taskTable() + " WHERE unique_key LIKE 'schedule:%'"
                + " AND created_at >= TIMESTAMPTZ 'epoch' + " + fromMillis + " * INTERVAL '1 millisecond'"
                + " AND created_at < TIMESTAMPTZ 'epoch' + " + toMillis + " * INTERVAL '1 millisecond'");
    }

    /** Tasks written for the slot at {@code epochMillis}: their unique keys end with it. */
    private static long slotTasks(Db db, ErrandSystem errand, long epochMillis) {
        return db.queryLong("SELECT count(*) FROM " + errand.taskTable() + " WHERE unique_key LIKE 'schedule:%@"
                + epochMillis + "'");
    }

    /** The CPU time of each backend of the pool, by pid. */
    static Map<Integer, Long> backendCpu(Db db, String applicationName) {
        Map<Integer, Long> cpu = new HashMap<>();
        for (String pid :
                db.queryLines("SELECT pid FROM pg_stat_activity WHERE application_name = '" + applicationName + "'")) {
            int id = Integer.parseInt(pid);
            cpu.put(id, SchedulerMeter.backendCpuNanos(id));
        }
        return cpu;
    }

    /** CPU time used between two readings; a backend that appeared in between counts from its start. */
    static long delta(Map<Integer, Long> before, Map<Integer, Long> after) {
        long total = 0;
        for (Map.Entry<Integer, Long> e : after.entrySet()) {
            total += e.getValue() - before.getOrDefault(e.getKey(), 0L);
        }
        return total;
    }

    static long nextMinute(long epochMillis) {
        return (epochMillis / MINUTE_MS + 1) * MINUTE_MS;
    }

    static void sleepUntil(long epochMillis) throws InterruptedException {
        long wait = epochMillis - System.currentTimeMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }

    /** Tasks per second between two sample times (epoch ms). */
    static double rate(List<long[]> samples, long from, long to) {
        long[] a = at(samples, from);
        long[] b = at(samples, to);
        return b[1] == a[1] ? 0 : (b[2] - a[2]) / ((b[1] - a[1]) / 1e9);
    }

    /** The rate of each whole second of the window, rounded to tasks per second. */
    static List<String> perSecond(List<long[]> samples) {
        List<String> rates = new ArrayList<>();
        long step = 1_000 / SAMPLE_MS;
        for (int i = 0; i + step < samples.size(); i += step) {
            long[] a = samples.get(i);
            long[] b = samples.get((int) (i + step));
            rates.add(Long.toString(Math.round((b[2] - a[2]) / ((b[1] - a[1]) / 1e9))));
        }
        return rates;
    }

    /** The lowest rate of any whole second of the window. */
    static double slowestSecond(List<long[]> samples) {
        double slowest = Double.NaN;
        long step = 1_000 / SAMPLE_MS;
        for (int i = 0; i + step < samples.size(); i += step) {
            long[] a = samples.get(i);
            long[] b = samples.get((int) (i + step));
            double r = (b[2] - a[2]) / ((b[1] - a[1]) / 1e9);
            slowest = Double.isNaN(slowest) ? r : Math.min(slowest, r);
        }
        return slowest;
    }

    /** The lowest rate of any {@code seconds} consecutive whole seconds of the window. */
    static double slowestSeconds(List<long[]> samples, int seconds) {
        double slowest = Double.NaN;
        long step = 1_000 / SAMPLE_MS;
        for (int i = 0; i + seconds * step < samples.size(); i += step) {
            long[] a = samples.get(i);
            long[] b = samples.get((int) (i + seconds * step));
            double r = (b[2] - a[2]) / ((b[1] - a[1]) / 1e9);
            slowest = Double.isNaN(slowest) ? r : Math.min(slowest, r);
        }
        return slowest;
    }

    private static long[] at(List<long[]> samples, long epochMillis) {
        long[] best = samples.get(0);
        for (long[] s : samples) {
            if (s[0] <= epochMillis) {
                best = s;
            }
        }
        return best;
    }

    private static double number(String value) {
        try {
            return value == null ? Double.NaN : Double.parseDouble(value);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    static double median(double[] values) {
        double[] sorted =
                Arrays.stream(values).filter(v -> !Double.isNaN(v)).sorted().toArray();
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
