package dev.errand.bench.events;

import dev.errand.bench.Db;
import dev.errand.bench.Params;
import dev.errand.bench.systems.ErrandSystem.Stamp;
import dev.errand.enqueue.TaskRequest;
import dev.errand.event.Triggered;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One trigger that releases {@code waiting} tasks (default 10,000), all waiting for the same event, with a
 * worker node running: the time of the {@code triggerEvent} call (its own transaction, commit included),
 * and the time from the call until every released task has started, and until every one is complete in
 * the database. Repeated {@code trials} times (default 7); the tasks of each trial are inserted with SQL
 * first and are not timed. A warm-up enqueues and triggers smaller sets through the API.
 */
final class TriggerScenario {

    private static final long TIMEOUT_MS = 10 * 60_000L;

    private TriggerScenario() {}

    static Map<String, String> run(Db db, Params p) throws Exception {
        int waiting = p.integer("waiting", 10_000);
        int trials = p.integer("trials", 7);
        int warm = p.integer("warm", 3);
        int warmSize = p.integer("warm-size", Math.max(1, Math.min(2_000, waiting / 5)));
        List<Double> triggerMs = new ArrayList<>();
        List<Double> allStartedMs = new ArrayList<>();
        List<Double> allDoneMs = new ArrayList<>();
        List<Double> busy = new ArrayList<>();
        try (EventNode node = new EventNode(db, "bench_evtrig_", 2)) {
            node.setUp();
            node.startWorkers(p.integer("workers", 8));
            for (int i = 0; i < warm; i++) {
                String event = "warm-" + i;
                List<TaskRequest> requests = new ArrayList<>(warmSize);
                for (int t = 0; t < warmSize; t++) {
                    requests.add(TaskRequest.builder(EventNode.KIND, new Stamp(0))
                            .condition(event)
                            .build());
                }
                node.client().enqueueAll(requests);
                release(node, event, warmSize);
            }
            for (int trial = 1; trial <= trials; trial++) {
                String event = "release-" + trial;
                WaitingRows.insert(db, node.prefix(), waiting, event, false);
                db.execute(
                        "VACUUM ANALYZE " + node.prefix() + "task",
                        "VACUUM ANALYZE " + node.prefix() + "task_condition");
                busy.add(Samples.awaitQuiet(p));
                double[] times = release(node, event, waiting);
                triggerMs.add(times[0]);
                allStartedMs.add(times[1]);
                allDoneMs.add(times[2]);
            }
            if (node.count("waiting") != 0) {
                throw new IllegalStateException(node.count("waiting") + " tasks still wait after every trigger");
            }
        }
        Map<String, String> r = new LinkedHashMap<>();
        r.put("waiting", Integer.toString(waiting));
        r.put("trials", Integer.toString(trials));
        put(r, "trigger_ms", triggerMs);
        put(r, "all_started_ms", allStartedMs);
        put(r, "all_done_ms", allDoneMs);
        r.put("others_busy_cores", Samples.list(busy));
        return r;
    }

    /** Median, min, max and every value of a figure. */
    static void put(Map<String, String> r, String key, List<Double> values) {
        r.put(key, Samples.fmt(Samples.median(values)));
        r.put(key + "_min", Samples.fmt(Samples.min(values)));
        r.put(key + "_max", Samples.fmt(Samples.max(values)));
        r.put(key + "_all", Samples.list(values));
    }

    /**
     * Triggers {@code event}, checks that it released {@code expected} tasks, and returns the milliseconds of
     * the call, until all started, and until all were complete.
     */
    private static double[] release(EventNode node, String event, int expected) throws Exception {
        Marks marks = node.newMarks(0);
        long begin = System.nanoTime();
        Triggered triggered = node.client().triggerEvent(event);
        long called = System.nanoTime();
        if (triggered.releasedTasks() != expected
                || triggered.fulfilledConditions() != expected
                || triggered.storedAsPremature()) {
            throw new IllegalStateException("Expected " + expected + " released tasks, got " + triggered);
        }
        marks.awaitRuns(expected, TIMEOUT_MS);
        long started = System.nanoTime();
        node.awaitDrained(TIMEOUT_MS);
        long done = System.nanoTime();
        return new double[] {(called - begin) / 1e6, (started - begin) / 1e6, (done - begin) / 1e6};
    }
}
