package dev.errand.bench.events;

import dev.errand.Errand;
import dev.errand.bench.Cpu;
import dev.errand.bench.Db;
import dev.errand.bench.Params;
import dev.errand.bench.systems.ErrandSystem.Stamp;
import dev.errand.enqueue.TaskRequest;
import dev.errand.event.Triggered;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Steady state of "enqueue with one condition, then trigger" pairs against plain enqueues, on one node
 * in one trial. {@code producers} threads (default 4) repeat one step as fast as they can while a worker
 * node with 8 workers runs the tasks:
 *
 * <ul>
 *   <li><b>plain</b>: {@code enqueue} of a due task, in a transaction of its own;
 *   <li><b>pair</b>: {@code enqueue} of a task waiting for an event of its own, then {@code triggerEvent} of
 *       that event, each in a transaction of its own.
 * </ul>
 *
 * <p>Each phase warms up for {@code warm-ms}, measures for {@code measure-ms}, then stops its producers and
 * waits until every task it made has run. The phases alternate over {@code rounds} (plain, pair, then pair,
 * plain, …). The delay is measured from the start of the enqueue call (plain) or of the trigger call (pair)
 * to the start of the task's handler; it is measured under that load, and again with one step every
 * {@code interval-ms} from one thread ({@code paced} steps each), which is the delay a lightly loaded
 * system shows.
 */
final class PairsScenario {

    private static final long TIMEOUT_MS = 10 * 60_000L;

    private final Params p;
    private final EventNode node;
    private final AtomicLong ids = new AtomicLong();

    private PairsScenario(Params p, EventNode node) {
        this.p = p;
        this.node = node;
    }

    static Map<String, String> run(Db db, Params p) throws Exception {
        int producers = p.integer("producers", 4);
        try (EventNode node = new EventNode(db, "bench_evpair_", producers + 1)) {
            return new PairsScenario(p, node).run(producers);
        }
    }

    private interface Step {
        void run(long id) throws Exception;
    }

    private Step step(boolean pair) {
        Errand client = node.client();
        if (!pair) {
            return id -> client.enqueue(TaskRequest.of(EventNode.KIND, new Stamp(id)));
        }
        return id -> {
            String event = "pair-" + id;
            client.enqueue(TaskRequest.builder(EventNode.KIND, new Stamp(id))
                    .condition(event)
                    .build());
            Triggered triggered = client.triggerEvent(event);
            if (triggered.releasedTasks() != 1) {
                throw new IllegalStateException("The trigger of " + event + " released no task: " + triggered);
            }
        };
    }

    private Map<String, String> run(int producers) throws Exception {
        int rounds = p.integer("rounds", 3);
        node.setUp();
        node.startWorkers(p.integer("workers", 8));
        Map<Boolean, List<Double>> rates = Map.of(false, new ArrayList<>(), true, new ArrayList<>());
        Map<Boolean, List<Double>> p50 = Map.of(false, new ArrayList<>(), true, new ArrayList<>());
        Map<Boolean, List<Double>> p95 = Map.of(false, new ArrayList<>(), true, new ArrayList<>());
        Map<Boolean, List<Double>> cores = Map.of(false, new ArrayList<>(), true, new ArrayList<>());
        List<Double> busy = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            for (boolean pair : round % 2 == 1 ? new boolean[] {false, true} : new boolean[] {true, false}) {
                busy.add(Samples.awaitQuiet(p));
                double[] figures = steady(step(pair), producers);
                rates.get(pair).add(figures[0]);
                p50.get(pair).add(figures[1]);
                p95.get(pair).add(figures[2]);
                cores.get(pair).add(figures[3]);
            }
        }
        int paced = p.integer("paced", 250);
        int interval = p.integer("interval-ms", 20);
        double[] pacedPlain = paced(step(false), paced, interval);
        double[] pacedPair = paced(step(true), paced, interval);
        long waiting = node.count("waiting");
        int premature = node.client().events().premature(10).size();
        if (waiting != 0 || premature != 0) {
            throw new IllegalStateException(
                    waiting + " tasks still wait and " + premature + " premature events remain after the pairs");
        }
        Map<String, String> r = new LinkedHashMap<>();
        r.put("producers", Integer.toString(producers));
        r.put("rounds", Integer.toString(rounds));
        TriggerScenario.put(r, "pairs_per_s", rates.get(true));
        TriggerScenario.put(r, "plain_per_s", rates.get(false));
        r.put("pairs_over_plain", Samples.fmt(Samples.median(rates.get(true)) / Samples.median(rates.get(false))));
        r.put("pair_p50_ms", Samples.fmt(Samples.median(p50.get(true))));
        r.put("pair_p95_ms", Samples.fmt(Samples.median(p95.get(true))));
        r.put("plain_p50_ms", Samples.fmt(Samples.median(p50.get(false))));
        r.put("plain_p95_ms", Samples.fmt(Samples.median(p95.get(false))));
        r.put("paced_pair_p50_ms", Samples.fmt(pacedPair[0]));
        r.put("paced_pair_p95_ms", Samples.fmt(pacedPair[1]));
        r.put("paced_pair_p99_ms", Samples.fmt(pacedPair[2]));
        r.put("paced_plain_p50_ms", Samples.fmt(pacedPlain[0]));
        r.put("paced_plain_p95_ms", Samples.fmt(pacedPlain[1]));
        r.put("paced_plain_p99_ms", Samples.fmt(pacedPlain[2]));
        r.put("paced_samples", Integer.toString(paced));
        r.put("machine_cores_pairs_all", Samples.list(cores.get(true)));
        r.put("machine_cores_plain_all", Samples.list(cores.get(false)));
        r.put("others_busy_cores", Samples.list(busy));
        return r;
    }

    /**
     * One phase at full speed: steps per second in the window, the delay's p50 and p95 in ms, and the cores
     * the whole machine kept busy in the window.
     */
    private double[] steady(Step step, int producers) throws Exception {
        Marks marks = node.newMarks(1 << 20);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong done = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        List<Exception> failures = new ArrayList<>();
        for (int i = 0; i < producers; i++) {
            Thread thread = new Thread(
                    () -> {
                        try {
                            while (running.get()) {
                                long id = ids.incrementAndGet();
                                marks.mark(id);
                                step.run(id);
                                done.incrementAndGet();
                            }
                        } catch (Exception e) {
                            synchronized (failures) {
                                failures.add(e);
                            }
                        }
                    },
                    "bench-producer-" + i);
            threads.add(thread);
            thread.start();
        }
        Thread.sleep(p.integer("warm-ms", 2_000));
        long before = done.get();
        long begin = System.nanoTime();
        Cpu cpu = Cpu.start();
        marks.openWindow();
        Thread.sleep(p.integer("measure-ms", 8_000));
        marks.closeWindow();
        long after = done.get();
        double seconds = (System.nanoTime() - begin) / 1e9;
        double machine = cpu.machineCores();
        running.set(false);
        for (Thread thread : threads) {
            thread.join(60_000);
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("A producer failed: " + failures.get(0), failures.get(0));
        }
        finish(marks, done.get());
        long[] delays = marks.sortedDelays();
        return new double[] {
            (after - before) / seconds, Samples.quantileMs(delays, 0.50), Samples.quantileMs(delays, 0.95), machine
        };
    }

    /** One step every {@code intervalMs} from one thread: the delay's p50, p95 and p99 in ms. */
    private double[] paced(Step step, int count, int intervalMs) throws Exception {
        Marks marks = node.newMarks(count);
        int warm = Math.min(20, count);
        for (int i = 0; i < warm + count; i++) {
            if (i == warm) {
                marks.openWindow();
            }
            long id = ids.incrementAndGet();
            marks.mark(id);
            step.run(id);
            Thread.sleep(intervalMs);
        }
        marks.closeWindow();
        finish(marks, warm + count);
        long[] delays = marks.sortedDelays();
        return new double[] {
            Samples.quantileMs(delays, 0.50), Samples.quantileMs(delays, 0.95), Samples.quantileMs(delays, 0.99)
        };
    }

    /** Waits until the phase's tasks all ran and are complete, and checks that each ran once. */
    private void finish(Marks marks, long tasks) throws Exception {
        marks.awaitRuns(tasks, TIMEOUT_MS);
        node.awaitDrained(TIMEOUT_MS);
        if (marks.runs() != tasks || marks.unmatched() != 0) {
            throw new IllegalStateException(
                    tasks + " tasks made, " + marks.runs() + " runs, " + marks.unmatched() + " without a mark");
        }
    }
}
