package dev.errand.bench;

import dev.errand.bench.events.EventScenarios;
import java.util.ArrayList;
import java.util.List;

/**
 * What a run measures: for each scenario, pairs of Errand and a peer that run alternately (Errand,
 * peer, Errand, peer…) so that their ratio holds when the machine's speed drifts. A pairing without a
 * peer runs Errand alone.
 */
public record Plan(String name, int rounds, List<Pairing> pairings) {

    /**
     * The figures the issue asks for: 100,000-task burn-downs (on one node, and shared by 2 and 4 nodes)
     * and a 1,000,000-task backlog; and claiming with and without 10,000 schedules on a one-minute cron,
     * whose slot falls on a real minute boundary inside the measured window, and the scheduler's cost
     * per minute.
     */
    public static Plan full(int rounds) {
        Params claim = new Params()
                .with("scenario", "schedules")
                .with("schedules", 10_000)
                .with("sched-queue", "bench-scheduled")
                .with("n", 2_500_000)
                .with("warm-ms", 5_000)
                .with("measure-ms", 40_000)
                .with("boundary-ms", 30_000)
                .with("after-ms", 10_000)
                .with("align", "minute");
        Params cost = new Params()
                .with("scenario", "schedule-cost")
                .with("schedules", 10_000)
                .with("sched-queue", "bench-scheduled")
                .with("slots", 2)
                .with("warm-slots", 1)
                .with("lead-ms", 2_000)
                .with("align", "minute");
        return build(
                "full",
                rounds,
                100_000,
                // The warm-up runs this many tasks before the window: with 5,000, the JIT compiler threads still
                // took most of the trial JVM's CPU during the 100,000-task window (more of Errand's code than of
                // a raw loop's), so the window measured compilation (docs/BENCHMARKS-JOURNAL.md, 2026-11-29).
                200_000,
                15_000,
                2_000,
                100_000,
                500,
                1_000_000,
                10_000,
                100_000,
                1_000_000,
                20_000,
                List.of(2, 4),
                claim,
                cost);
    }

    /**
     * A few hundred tasks per scenario and system: checks that everything works, not how fast. The
     * schedule scenarios use 300 schedules whose slot is moved to a moment after the node starts, so that
     * they take seconds instead of waiting for a minute boundary, and a lookahead of a second to match.
     */
    public static Plan smoke() {
        Params claim = new Params()
                .with("scenario", "schedules")
                .with("schedules", 300)
                .with("sched-queue", "bench-scheduled")
                .with("n", 60_000)
                .with("warm-ms", 300)
                .with("measure-ms", 1_200)
                .with("boundary-ms", 300)
                .with("after-ms", 500)
                .with("lookahead-ms", 1_000)
                .with("align", "soon");
        Params cost = new Params()
                .with("scenario", "schedule-cost")
                .with("schedules", 300)
                .with("sched-queue", "bench-scheduled")
                .with("slots", 2)
                .with("warm-slots", 0)
                .with("window-ms", 1_500)
                .with("lead-ms", 300)
                .with("lookahead-ms", 1_000)
                .with("align", "soon");
        return build("smoke", 1, 200, 50, 600, 20, 400, 10, 2_000, 200, 200, 2_000, 200, List.of(2), claim, cost);
    }

    private static Plan build(
            String name,
            int rounds,
            int burn,
            int warm,
            int measureMs,
            int singles,
            int batchTotal,
            int latencyCount,
            int bigBacklog,
            int smallBacklog,
            int nodeTasks,
            int future,
            int due,
            List<Integer> nodeCounts,
            Params schedulesClaim,
            Params scheduleCost) {
        List<Pairing> list = new ArrayList<>();
        Params burnDown =
                new Params().with("scenario", "burn-down").with("n", burn).with("warm", warm);
        list.add(new Pairing("burn-down", burnDown, "errand", "raw-sql"));
        list.add(new Pairing("burn-down", burnDown, "errand-tx", "raw-sql-tx"));
        list.add(new Pairing("burn-down", burnDown, "errand", "db-scheduler"));
        list.add(new Pairing("burn-down", burnDown, "errand", "jobrunr"));
        // What the attempt history costs: Errand with it against Errand with the defaults (history off).
        list.add(new Pairing("history", burnDown, "errand-history", "errand"));
        list.add(new Pairing("history", burnDown, "errand-tx-history", "errand-tx"));
        // Group commit against one commit per task: the raw SQL loop and Errand's default.
        list.add(new Pairing("group-commit", burnDown, "errand-tx-group", "raw-sql-tx"));
        list.add(new Pairing("group-commit", burnDown, "errand-tx-group", "errand-tx"));
        // The same with a handler that inserts one row in the task's transaction.
        list.add(new Pairing("group-commit-write", burnDown, "errand-tx-group-write", "raw-sql-tx-write"));
        list.add(new Pairing("group-commit-write", burnDown, "errand-tx-group-write", "errand-tx-write"));
        // Entity queues (errand-jpa) against Errand's own tasks, on the same burn-down.
        list.add(new Pairing("jpa-burn-down", burnDown, "errand", "errand-jpa"));
        list.add(new Pairing("jpa-burn-down", burnDown, "errand-tx", "errand-jpa"));
        Params steady = new Params()
                .with("scenario", "steady")
                .with("warm-ms", Math.min(3_000, measureMs / 3))
                .with("measure-ms", measureMs);
        for (String peer : List.of("raw-sql", "db-scheduler", "jobrunr")) {
            list.add(new Pairing("steady", steady, "errand", peer));
        }
        Params enqueue = new Params()
                .with("scenario", "enqueue")
                .with("singles", singles)
                .with("batch-total", batchTotal)
                .with("batch-size", Math.min(1_000, batchTotal / 4));
        for (String peer : List.of("raw-sql", "db-scheduler", "jobrunr")) {
            list.add(new Pairing("enqueue", enqueue, "errand", peer));
        }
        Params latency = new Params()
                .with("scenario", "latency")
                .with("count", latencyCount)
                .with("interval-ms", 20);
        list.add(new Pairing("latency", latency, "errand", "db-scheduler"));
        if (Runtime.version().feature() >= 21) {
            // Virtual threads against the default platform threads; the group exists only on Java 21 and later.
            list.add(new Pairing("virtual-threads", burnDown, "errand-vthreads", "errand"));
            list.add(new Pairing("virtual-threads", burnDown, "errand-tx-vthreads", "errand-tx"));
            list.add(new Pairing("virtual-threads-latency", latency, "errand-vthreads", "errand"));
        }
        list.add(new Pairing("latency", latency, "errand", "jobrunr"));
        for (int backlog : List.of(smallBacklog, bigBacklog)) {
            Params p = new Params()
                    .with("scenario", "backlog")
                    .with("backlog", backlog)
                    .with("warm-ms", Math.min(3_000, measureMs / 3))
                    .with("measure-ms", Math.max(1_000, measureMs * 2 / 3));
            list.add(new Pairing("backlog-" + label(backlog), p, "errand", "raw-sql"));
        }
        list.add(new Pairing(
                "claim-plan",
                new Params()
                        .with("scenario", "claim-plan")
                        .with("future", future)
                        .with("due", due),
                "errand",
                null));
        list.add(new Pairing("heap", new Params().with("scenario", "heap").with("n", burn), "errand", null));
        for (int nodes : nodeCounts) {
            Params p = new Params()
                    .with("scenario", "nodes")
                    .with("nodes", nodes)
                    .with("n", nodeTasks)
                    .with("warm", warm * 2); // per node: a short warm-up would measure JIT compilation
            for (String peer : List.of("raw-sql", "db-scheduler", "jobrunr")) {
                list.add(new Pairing("nodes-" + nodes, p, "errand", peer));
            }
        }
        list.addAll(EventScenarios.pairings(name));
        list.addAll(dev.errand.bench.batches.BatchScenarios.pairings(name));
        // Errand without schedules against Errand with them: the "peer" is errand-schedules.
        String count = label(schedulesClaim.integer("schedules", 0));
        list.add(new Pairing("schedules-" + count, schedulesClaim, "errand", Systems.SCHEDULES));
        list.add(new Pairing("schedule-cost-" + count, scheduleCost, "errand", Systems.SCHEDULES));
        if (!name.equals("smoke")) {
            // The same claiming with each slot written when it comes, as before the lookahead: what writing
            // ahead changes, in the same run (the full profile only).
            list.add(new Pairing("schedules-at-slot-" + count, schedulesClaim, "errand", Systems.SCHEDULES_AT_SLOT));
            list.add(new Pairing("schedule-cost-at-slot-" + count, scheduleCost, "errand", Systems.SCHEDULES_AT_SLOT));
            // The cost at Errand's default poll interval (the plans' 100 ms makes ten checks a second).
            list.add(new Pairing(
                    "schedule-cost-default-poll-" + count,
                    scheduleCost.copy().with("poll-ms", 500),
                    "errand",
                    Systems.SCHEDULES));
        }
        return new Plan(name, rounds, list);
    }

    static String label(int count) {
        return count >= 1_000_000 && count % 1_000_000 == 0
                ? count / 1_000_000 + "M"
                : count >= 1_000 && count % 1_000 == 0 ? count / 1_000 + "k" : Integer.toString(count);
    }

    /** Only the pairings whose group starts with one of {@code groups}. */
    public Plan only(List<String> groups) {
        if (groups.isEmpty()) {
            return this;
        }
        List<Pairing> kept = pairings.stream()
                .filter(pairing -> groups.stream().anyMatch(g -> pairing.group().startsWith(g)))
                .toList();
        return new Plan(name, rounds, kept);
    }
}
