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
 * Runs the whole comparison and writes a report ({@code <out>/BENCHMARKS.md}), the chart and the raw
 * results. The default {@code --out} is {@value #DEFAULT_OUT}: a run never overwrites docs/, whose
 * BENCHMARKS.md is the page of current figures, written by hand from such reports.
 *
 * <pre>
 * --profile full|smoke   sizes (default full: 100,000-task burn-downs, a 1,000,000-task backlog)
 * --rounds N             alternating rounds per pairing (default 3; smoke 1)
 * --only g1,g2           only scenario groups starting with these names (burn-down, steady, enqueue,
 *                        latency, backlog, claim-plan, heap, nodes, schedules, schedule-cost;
 *                        "schedule" selects both schedule groups)
 * --out DIR              where the report goes (default errand-bench/target/report)
 * --in-process           run trials in this JVM instead of one JVM per trial (the smoke test)
 * --quiet-cores X        wait before a trial until other processes keep fewer than X cores busy
 *                        (default 0.7; measured over 2 s)
 * --quiet-wait S         wait at most S seconds for that (default 300), then run and flag the trial
 * --no-jfr, --no-jmh     skip the JFR profile of Errand's burn-down, or the JMH micro-benchmarks
 * --report-only          rebuild the report and chart from a finished run's files in DIR/benchmarks
 * --keep-schema          keep the schema this run named for itself (errand_bench_<time>_<pid>; with
 *                        -Dbench.db.schema=NAME the run uses NAME and never drops it)
 * </pre>
 */
public final class BenchMain {

    /** Where a run writes its report unless {@code --out} says otherwise. */
    static final String DEFAULT_OUT = "errand-bench/target/report";

    private BenchMain() {}

    public static void main(String[] args) throws Exception {
        List<TrialRecord> records = run(args);
        long failures = records.stream().filter(TrialRecord::failed).count();
        System.exit(failures == 0 ? 0 : 1);
    }

    /**
     * Runs the plan and writes the report; returns every trial. A schema this run named for itself is
     * dropped at the end, unless {@code --keep-schema} is given.
     */
    public static List<TrialRecord> run(String... args) throws Exception {
        try {
            return runPlan(args);
        } finally {
            if (Db.schemaIsThisRunsOwn() && !options(args).containsKey("keep-schema")) {
                Db.fromSystemProperties().dropSchema(Db.schema());
            }
        }
    }

    private static List<TrialRecord> runPlan(String... args) throws Exception {
        Map<String, String> options = options(args);
        if (Db.schemaIsThisRunsOwn()) {
            // A run killed before its clean-up left its schema; the next run drops it once it is a day old.
            for (String abandoned : Db.fromSystemProperties()
                    .dropAbandonedSchemas(java.time.LocalDateTime.now(java.time.ZoneOffset.UTC))) {
                System.out.println("Dropped schema " + abandoned + ", left by a run that did not end");
            }
        }
        String profile = options.getOrDefault("profile", "full");
        int rounds = Integer.parseInt(options.getOrDefault("rounds", profile.equals("smoke") ? "1" : "3"));
        Plan plan = (profile.equals("smoke") ? Plan.smoke() : Plan.full(rounds))
                .only(options.containsKey("only") ? List.of(options.get("only").split(",")) : List.of());
        Path out = Path.of(options.getOrDefault("out", DEFAULT_OUT));
        boolean inProcess = options.containsKey("in-process");
        double quietCores = Double.parseDouble(options.getOrDefault("quiet-cores", "0.7"));
        long quietWait = Long.parseLong(options.getOrDefault("quiet-wait", profile.equals("smoke") ? "0" : "300"));
        Db db = Db.fromSystemProperties();
        String command =
                System.getProperty("bench.command", "java dev.errand.bench.BenchMain " + String.join(" ", args));

        Path dir = out.resolve("benchmarks");
        if (System.getProperty("bench.errand.version") == null) {
            System.setProperty("bench.errand.version", gitCommit());
        }
        if (options.containsKey("report-only")) {
            // Rebuild the report from a finished run's files, for example after editing the notes.
            List<TrialRecord> records = readResults(dir.resolve("results.tsv"));
            Map<String, String> meta = readPairs(dir.resolve("meta.tsv"));
            System.setProperty("bench.errand.version", meta.getOrDefault("errand_commit", "?"));
            new ChartWriter().write(records, dir.resolve("throughput.png"));
            new ReportWriter(
                            db,
                            plan,
                            records,
                            meta.get("command"),
                            meta.get("started"),
                            meta.get("load_start"),
                            meta.get("load_end"),
                            readPairs(dir.resolve("jmh.tsv")),
                            readText(dir.resolve("profile.txt")))
                    .write(out.resolve("BENCHMARKS.md"));
            System.out.println("Rebuilt " + out.resolve("BENCHMARKS.md") + " from " + records.size() + " trials");
            return records;
        }
        List<TrialRecord> records = new ArrayList<>();
        String startedAt = java.time.ZonedDateTime.now().withNano(0).toString();
        String loadAtStart = Cpu.loadAverage();
        java.util.Set<String> ranOnce = new java.util.HashSet<>();
        for (Pairing pairing : plan.pairings()) {
            int pairingRounds = pairing.peer() == null ? 1 : plan.rounds();
            for (int round = 1; round <= pairingRounds; round++) {
                for (String system : pairing.peer() == null
                        ? List.of(pairing.errand())
                        : List.of(pairing.errand(), pairing.peer())) {
                    if (plan.name().equals("smoke") && !ranOnce.add(pairing.group() + "/" + system)) {
                        continue; // the smoke test needs each system once per scenario, not each pairing
                    }
                    Params params = pairing.params().copy().with("system", system);
                    if (!options.containsKey("no-jfr")
                            && round == 1
                            && system.equals("errand")
                            && pairing.group().equals("burn-down")
                            && "raw-sql".equals(pairing.peer())) {
                        params.with("jfr", dir.resolve("errand-burn-down.jfr").toString());
                    }
                    records.add(trial(db, pairing, system, round, params, inProcess, quietCores, quietWait));
                    Files.createDirectories(dir);
                    writeResults(dir.resolve("results.tsv"), records); // keep what finished if the run stops
                }
            }
        }
        String loadAtEnd = Cpu.loadAverage();
        Map<String, String> jmh =
                options.containsKey("no-jmh") || profile.equals("smoke") ? Map.of() : MicroBenchmarks.run();
        Files.createDirectories(dir);
        writeResults(dir.resolve("results.tsv"), records);
        Path jfr = dir.resolve("errand-burn-down.jfr");
        String profileSummary = Files.exists(jfr) ? Profiler.summarise(jfr, 12) : "";
        Files.deleteIfExists(jfr);
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("command", command);
        meta.put("started", startedAt);
        meta.put("load_start", loadAtStart);
        meta.put("load_end", loadAtEnd);
        meta.put("errand_commit", System.getProperty("bench.errand.version"));
        writePairs(dir.resolve("meta.tsv"), meta);
        writePairs(dir.resolve("jmh.tsv"), jmh);
        Files.writeString(dir.resolve("profile.txt"), profileSummary);
        new ChartWriter().write(records, dir.resolve("throughput.png"));
        new ReportWriter(db, plan, records, command, startedAt, loadAtStart, loadAtEnd, jmh, profileSummary)
                .write(out.resolve("BENCHMARKS.md"));
        long failures = records.stream().filter(TrialRecord::failed).count();
        System.out.println(
                "Wrote " + out.resolve("BENCHMARKS.md") + " (" + records.size() + " trials, " + failures + " failed)");
        return records;
    }

    private static TrialRecord trial(
            Db db,
            Pairing pairing,
            String system,
            int round,
            Params params,
            boolean inProcess,
            double quietCores,
            long quietWaitSeconds)
            throws Exception {
        double busy = waitForQuiet(quietCores, quietWaitSeconds);
        String load = Cpu.loadAverage();
        System.out.printf(
                "[bench] %-12s %-13s round %d (others busy %.2f cores, load %s) %s%n",
                pairing.group(), system, round, busy, load, params);
        Map<String, String> result;
        long begin = System.nanoTime();
        try {
            result = inProcess ? Scenarios.run(db, params) : fork(params);
        } catch (Exception | Error e) {
            result = new LinkedHashMap<>();
            result.put(
                    "error", String.valueOf(e.getMessage()).replace('\t', ' ').replace('\n', ' '));
        }
        System.out.printf("[bench]   -> %.1f s ", (System.nanoTime() - begin) / 1e9);
        System.out.println(result.entrySet().stream()
                .filter(e -> !e.getKey().equals("plan"))
                .map(Object::toString)
                .toList());
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
        Process process = Forks.java(TrialMain.class, params.toArgs(), "-Xmx1g", "-XX:+UseG1GC")
                .start();
        Map<String, String> result = null;
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith(TrialMain.RESULT + "\t")) {
                    result = new LinkedHashMap<>();
                    for (String pair :
                            line.substring(TrialMain.RESULT.length() + 1).split("\t")) {
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

    /** One line per trial: group, system, peer, round, others' busy cores, load, then key=value fields. */
    private static void writeResults(Path file, List<TrialRecord> records) throws Exception {
        List<String> lines = new ArrayList<>();
        lines.add("# group\tsystem\tpeer\tround\tothers_busy_cores\tload\tfigures (key=value)...");
        for (TrialRecord r : records) {
            StringBuilder line = new StringBuilder(r.group() + "\t" + r.system() + "\t" + r.peer() + "\t"
                    + r.round() + "\t" + String.format(java.util.Locale.ROOT, "%.2f", r.busyCoresBefore()) + "\t"
                    + r.loadBefore());
            r.result().forEach((k, v) -> line.append('\t').append(k).append('=').append(v.replace('\t', ' ')));
            lines.add(line.toString());
        }
        Files.write(file, lines);
    }

    private static List<TrialRecord> readResults(Path file) throws Exception {
        List<TrialRecord> records = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t");
            Map<String, String> result = new LinkedHashMap<>();
            for (int i = 6; i < f.length; i++) {
                int eq = f[i].indexOf('=');
                result.put(f[i].substring(0, eq), f[i].substring(eq + 1));
            }
            records.add(new TrialRecord(
                    f[0],
                    f[1],
                    f[2].equals("null") ? null : f[2],
                    Integer.parseInt(f[3]),
                    Double.parseDouble(f[4]),
                    f[5],
                    result));
        }
        return records;
    }

    private static void writePairs(Path file, Map<String, String> pairs) throws Exception {
        List<String> lines = new ArrayList<>();
        pairs.forEach((k, v) -> lines.add(k + "\t" + v));
        Files.write(file, lines);
    }

    private static Map<String, String> readPairs(Path file) throws Exception {
        Map<String, String> pairs = new LinkedHashMap<>();
        if (Files.exists(file)) {
            for (String line : Files.readAllLines(file)) {
                int tab = line.indexOf('\t');
                if (tab > 0) {
                    pairs.put(line.substring(0, tab), line.substring(tab + 1));
                }
            }
        }
        return pairs;
    }

    /** The checked-out commit, with "-dirty" when errand-core or errand-bench has uncommitted changes. */
    private static String gitCommit() {
        try {
            Process head = new ProcessBuilder("git", "rev-parse", "--short", "HEAD")
                    .redirectErrorStream(true)
                    .start();
            String commit = new String(head.getInputStream().readAllBytes()).trim();
            Process status = new ProcessBuilder("git", "status", "--porcelain", "--", "errand-core", "errand-bench")
                    .redirectErrorStream(true)
                    .start();
            String changes = new String(status.getInputStream().readAllBytes()).trim();
            return head.waitFor() == 0 ? commit + (changes.isEmpty() ? "" : "-dirty") : "unknown";
        } catch (Exception e) {
            return "unknown";
        }
    }

    private static String readText(Path file) throws Exception {
        return Files.exists(file) ? Files.readString(file) : "";
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
