package dev.errand.bench;

import dev.errand.bench.report.ChartWriter;
import dev.errand.bench.report.ReportWriter;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the whole comparison and writes {@code docs/BENCHMARKS.md}, the chart and the raw results.
 *
 * <pre>
 * --profile full|smoke   sizes (default full: 100,000-task burn-downs, a 1,000,000-task backlog)
 * --rounds N             alternating rounds per pairing (default 3; smoke 1)
 * --only g1,g2           only scenario groups starting with these names (burn-down, steady, enqueue,
 *                        latency, backlog, claim-plan, heap, nodes)
 * --out DIR              where the report goes (default docs)
 * --in-process           run trials in this JVM instead of one JVM per trial (the smoke test)
 * --quiet-cores X        wait before a trial until other processes keep fewer than X cores busy
 *                        (default 0.7; measured over 2 s)
 * --quiet-wait S         wait at most S seconds for that (default 300), then run and flag the trial
 * --no-jfr, --no-jmh     skip the JFR profile of Errand's burn-down, or the JMH micro-benchmarks
 * </pre>
 */
public final class BenchMain {

    private BenchMain() {}

    public static void main(String[] args) throws Exception {
        List<TrialRecord> records = run(args);
        long failures = records.stream().filter(TrialRecord::failed).count();
        System.exit(failures == 0 ? 0 : 1);
    }

    /** Runs the plan and writes the report; returns every trial. */
    public static List<TrialRecord> run(String... args) throws Exception {
        Map<String, String> options = options(args);
        String profile = options.getOrDefault("profile", "full");
        int rounds = Integer.parseInt(options.getOrDefault("rounds", profile.equals("smoke") ? "1" : "3"));
        Plan plan = (profile.equals("smoke") ? Plan.smoke() : Plan.full(rounds))
                .only(options.containsKey("only") ? List.of(options.get("only").split(",")) : List.of());
        Path out = Path.of(options.getOrDefault("out", "docs"));
        boolean inProcess = options.containsKey("in-process");
        double quietCores = Double.parseDouble(options.getOrDefault("quiet-cores", "0.7"));
        long quietWait = Long.parseLong(options.getOrDefault("quiet-wait", profile.equals("smoke") ? "0" : "300"));
        Db db = Db.fromSystemProperties();
        String command = System.getProperty("bench.command", "java dev.errand.bench.BenchMain " + String.join(" ", args));

        List<TrialRecord> records = new ArrayList<>();
        String startedAt = java.time.ZonedDateTime.now().withNano(0).toString();
        String loadAtStart = Cpu.loadAverage();
        java.util.Set<String> ranOnce = new java.util.HashSet<>();
        for (Plan.Pairing pairing : plan.pairings()) {
            int pairingRounds = pairing.peer() == null ? 1 : plan.rounds();
            for (int round = 1; round <= pairingRounds; round++) {
                for (String system : pairing.peer() == null ? List.of(pairing.errand())
                        : List.of(pairing.errand(), pairing.peer())) {
                    if (plan.name().equals("smoke") && !ranOnce.add(pairing.group() + "/" + system)) {
                        continue; // the smoke test needs each system once per scenario, not each pairing
                    }
                    Params params = pairing.params().copy().with("system", system);
                    if (!options.containsKey("no-jfr") && round == 1 && system.equals("errand")
                            && pairing.group().equals("burn-down") && "raw-sql".equals(pairing.peer())) {
                        params.with("jfr", out.resolve("benchmarks").resolve("errand-burn-down.jfr").toString());
                    }
                    records.add(trial(db, pairing, system, round, params, inProcess, quietCores, quietWait));
                }
            }
        }
        Map<String, String> jmh = options.containsKey("no-jmh") || profile.equals("smoke") ? Map.of()
                : MicroBenchmarks.run();
        Files.createDirectories(out.resolve("benchmarks"));
        writeResults(out.resolve("benchmarks").resolve("results.tsv"), records);
        Path chart = out.resolve("benchmarks").resolve("throughput.png");
        new ChartWriter().write(records, chart);
        Path jfr = out.resolve("benchmarks").resolve("errand-burn-down.jfr");
        String profileSummary = Files.exists(jfr) ? Profiler.summarise(jfr, 12) : "";
        new ReportWriter(db, plan, records, command, startedAt, loadAtStart, Cpu.loadAverage(), jmh, profileSummary)
                .write(out.resolve("BENCHMARKS.md"));
        Files.deleteIfExists(jfr);
        long failures = records.stream().filter(TrialRecord::failed).count();
        System.out.println("Wrote " + out.resolve("BENCHMARKS.md") + " (" + records.size() + " trials, " + failures
                + " failed)");
        return records;
    }

    private static TrialRecord trial(Db db, Plan.Pairing pairing, String system, int round, Params params,
            boolean inProcess, double quietCores, long quietWaitSeconds) throws Exception {
        double busy = waitForQuiet(quietCores, quietWaitSeconds);
        String load = Cpu.loadAverage();
        System.out.printf("[bench] %-12s %-13s round %d (others busy %.2f cores, load %s) %s%n", pairing.group(), system,
                round, busy, load, params);
        Map<String, String> result;
        long begin = System.nanoTime();
        try {
            result = inProcess ? Scenarios.run(db, params) : fork(params);
        } catch (Exception | Error e) {
            result = new LinkedHashMap<>();
            result.put("error", String.valueOf(e.getMessage()).replace('\t', ' ').replace('\n', ' '));
        }
        System.out.printf("[bench]   -> %.1f s ", (System.nanoTime() - begin) / 1e9);
        System.out.println(result.entrySet().stream().filter(e -> !e.getKey().equals("plan"))
                .map(Object::toString).toList());
        return new TrialRecord(pairing.group(), system, pairing.peer(), round, busy, load, result);
    }

    private static double waitForQuiet(double quietCores, long waitSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(waitSeconds);
        double busy = Cpu.busyCoresOver(waitSeconds == 0 ? 200 : 2_000);
        while (busy > quietCores && System.nanoTime() < deadline) {
            System.out.printf("[bench] waiting for a quiet machine: other processes keep %.2f cores busy%n", busy);
            Thread.sleep(5_000);
            busy = Cpu.busyCoresOver(2_000);
        }
        return busy;
    }

    private static Map<String, String> fork(Params params) throws Exception {
        Process process = Forks.java(TrialMain.class, params.toArgs(), "-Xmx1g", "-XX:+UseG1GC").start();
        Map<String, String> result = null;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith(TrialMain.RESULT + "\t")) {
                    result = new LinkedHashMap<>();
                    for (String pair : line.substring(TrialMain.RESULT.length() + 1).split("\t")) {
                        int eq = pair.indexOf('=');
                        result.put(pair.substring(0, eq), pair.substring(eq + 1));
                    }
                } else {
                    System.out.println("[trial] " + line);
                }
            }
        }
        if (!process.waitFor(30, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException("Trial timed out: " + params);
        }
        if (result == null) {
            throw new IllegalStateException("Trial exited with " + process.exitValue() + " and no result: " + params);
        }
        return result;
    }

    private static void writeResults(Path file, List<TrialRecord> records) throws Exception {
        List<String> lines = new ArrayList<>();
        lines.add("group\tsystem\tpeer\tround\tothers_busy_cores\tload\tresult");
        for (TrialRecord r : records) {
            Map<String, String> shown = new LinkedHashMap<>(r.result());
            shown.remove("plan");
            lines.add(r.group() + "\t" + r.system() + "\t" + r.peer() + "\t" + r.round() + "\t"
                    + String.format(java.util.Locale.ROOT, "%.2f", r.busyCoresBefore()) + "\t" + r.loadBefore() + "\t"
                    + shown);
        }
        Files.write(file, lines);
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        List<String> list = Arrays.asList(args);
        for (int i = 0; i < list.size(); i++) {
            String arg = list.get(i);
            if (!arg.startsWith("--")) {
                throw new IllegalArgumentException("Unexpected argument " + arg);
            }
            String key = arg.substring(2);
            if (i + 1 < list.size() && !list.get(i + 1).startsWith("--")) {
                options.put(key, list.get(++i));
            } else {
                options.put(key, "true");
            }
        }
        return options;
    }
}
