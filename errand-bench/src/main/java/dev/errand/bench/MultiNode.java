package dev.errand.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Scenario 6: a burn-down shared by {@code nodes} worker JVMs ({@link NodeMain}) on one database. The
 * clock starts when every node has been told to go and stops when the database holds no incomplete
 * task. Before that, every node runs its share of {@code warm} tasks per node (default 5,000) on the
 * same tables, so that no system is measured on cold JIT code; those tasks are drained before the
 * measured backlog is inserted.
 */
final class MultiNode {

    private MultiNode() {}

    static Map<String, String> run(Db db, BenchSystem system, Params p) throws Exception {
        int nodes = p.integer("nodes", 2);
        int n = p.integer("n", 100_000);
        int warm = p.integer("warm", 5_000) * nodes;
        system.setUp();
        if (warm > 0) {
            system.prefill(warm);
        }
        List<Process> processes = new ArrayList<>();
        List<PrintWriter> inputs = new ArrayList<>();
        AtomicLongArray runs = new AtomicLongArray(nodes);
        Semaphore ready = new Semaphore(0);
        try {
            for (int i = 0; i < nodes; i++) {
                Process process =
                        Forks.java(NodeMain.class, p.toArgs(), "-Xmx512m").start();
                processes.add(process);
                inputs.add(new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8));
                int index = i;
                Thread reader = new Thread(() -> read(process, index, runs, ready), "bench-node-" + i);
                reader.setDaemon(true);
                reader.start();
            }
            awaitReady(ready, nodes);
            if (warm > 0) {
                inputs.forEach(in -> in.println("WARM"));
                Scenarios.awaitDrained(system);
                inputs.forEach(in -> in.println("COOL"));
                awaitReady(ready, nodes);
            }
            system.prefill(n);
            db.analyze(system.taskTable());
            Cpu cpu = Cpu.start();
            long begin = System.nanoTime();
            inputs.forEach(in -> in.println("GO"));
            long deadline = System.currentTimeMillis() + TimeUnit.MINUTES.toMillis(20);
            while (sum(runs) < n) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("Nodes ran only " + sum(runs) + " of " + n + " tasks");
                }
                Thread.sleep(2);
            }
            Scenarios.awaitDrained(system);
            double seconds = (System.nanoTime() - begin) / 1e9;
            double machine = cpu.machineCores();
            inputs.forEach(in -> in.println("STOP"));
            for (Process process : processes) {
                process.waitFor(60, TimeUnit.SECONDS);
            }
            Map<String, String> r = new LinkedHashMap<>();
            r.put("rate", Scenarios.fmt(n / seconds));
            r.put("seconds", Scenarios.fmt(seconds));
            r.put("machine_cores", Scenarios.fmt(machine));
            StringBuilder split = new StringBuilder();
            for (int i = 0; i < nodes; i++) {
                split.append(i == 0 ? "" : "/").append(runs.get(i));
            }
            r.put("runs_per_node", split.toString());
            return r;
        } finally {
            for (Process process : processes) {
                if (process.isAlive()) {
                    process.destroyForcibly();
                }
            }
        }
    }

    private static void awaitReady(Semaphore ready, int nodes) throws InterruptedException {
        if (!ready.tryAcquire(nodes, 2, TimeUnit.MINUTES)) {
            throw new IllegalStateException("Worker nodes did not get ready in 2 minutes");
        }
    }

    private static void read(Process process, int index, AtomicLongArray runs, Semaphore ready) {
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.equals("READY")) {
                    ready.release();
                } else if (line.startsWith("RUNS ")) {
                    runs.set(index, Long.parseLong(line.substring(5).trim()));
                } else if (line.startsWith("STOPPED ")) {
                    runs.set(index, Long.parseLong(line.substring(8).trim()));
                }
            }
        } catch (java.io.IOException e) {
            // the node ended
        }
    }

    private static long sum(AtomicLongArray values) {
        long sum = 0;
        for (int i = 0; i < values.length(); i++) {
            sum += values.get(i);
        }
        return sum;
    }
}
