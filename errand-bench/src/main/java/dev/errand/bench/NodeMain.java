package dev.errand.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A worker node in a JVM of its own, for the multi-node scenario. It attaches to tables the
 * coordinator set up, prints {@code READY}, starts its workers on {@code GO}, reports {@code RUNS n}
 * every 50 ms, and stops on {@code STOP} (or when its standard input closes).
 */
public final class NodeMain {

    private NodeMain() {}

    public static void main(String[] args) throws Exception {
        Params p = Params.parse(args);
        Db db = Db.fromSystemProperties();
        BenchSystem system = Systems.create(p.require("system"), db, p);
        system.attach();
        Probe probe = new Probe(0);
        system.prepareWorkers(p.integer("workers", 8), probe);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        System.out.println("READY");
        System.out.flush();
        String line = in.readLine();
        if (!"GO".equals(line)) {
            System.exit(2);
        }
        system.startWorkers();
        Thread reporter = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    System.out.println("RUNS " + probe.runs());
                    System.out.flush();
                    Thread.sleep(50);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "bench-reporter");
        reporter.setDaemon(true);
        reporter.start();
        while ((line = in.readLine()) != null && !line.equals("STOP")) {
            // wait
        }
        reporter.interrupt();
        system.stopWorkers();
        System.out.println("STOPPED " + probe.runs());
        System.out.flush();
        System.exit(0);
    }
}
