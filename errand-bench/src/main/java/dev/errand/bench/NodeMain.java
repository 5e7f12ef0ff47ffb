package dev.errand.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A worker node in a JVM of its own, for the multi-node scenario. It attaches to tables the
 * coordinator set up and prints {@code READY}. On {@code WARM} it runs workers on the warm-up tasks
 * until {@code COOL}, then builds a fresh node and prints {@code READY} again. On {@code GO} it starts
 * its workers, reports {@code RUNS n} every 50 ms, and stops on {@code STOP} (or when its standard
 * input closes).
 */
public final class NodeMain {

    private NodeMain() {}

    /** Runs one node; arguments are the trial's {@link Params}. */
    public static void main(String[] args) throws Exception {
        Params p = Params.parse(args);
        Db db = Db.fromSystemProperties();
        BenchSystem system = Systems.create(p.require("system"), db, p);
        system.attach();
        int workers = p.integer("workers", 8);
        Probe probe = new Probe(0);
        system.prepareWorkers(workers, probe);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        System.out.println("READY");
        System.out.flush();
        String line = in.readLine();
        if ("WARM".equals(line)) {
            // Warm the JIT on tasks the coordinator drains, so that the measured run compares
            // steady-state code for every system, not start-up costs.
            system.startWorkers();
            line = in.readLine();
            if (!"COOL".equals(line)) {
                System.exit(2);
            }
            system.stopWorkers();
            probe = new Probe(0);
            system.prepareWorkers(workers, probe);
            System.out.println("READY");
            System.out.flush();
            line = in.readLine();
        }
        if (!"GO".equals(line)) {
            System.exit(2);
        }
        system.startWorkers();
        Probe measured = probe;
        Thread reporter = new Thread(
                () -> {
                    try {
                        while (!Thread.currentThread().isInterrupted()) {
                            System.out.println("RUNS " + measured.runs());
                            System.out.flush();
                            Thread.sleep(50);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "bench-reporter");
        reporter.setDaemon(true);
        reporter.start();
        while ((line = in.readLine()) != null && !line.equals("STOP")) {
            // wait
        }
        reporter.interrupt();
        system.stopWorkers();
        System.out.println("STOPPED " + measured.runs());
        System.out.flush();
        System.exit(0);
    }
}
