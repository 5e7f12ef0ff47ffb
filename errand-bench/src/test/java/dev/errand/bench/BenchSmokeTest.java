package dev.errand.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.bench.events.EventScenarios;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Runs every scenario against every system with a few hundred tasks, in this JVM (the multi-node
 * scenario still starts worker JVMs), and checks that the run completes and writes its report and
 * chart. It checks that the benchmark works, not how fast anything is.
 */
class BenchSmokeTest {

    @Test
    void everyScenarioRunsOnEverySystemAndTheReportIsWritten() throws Exception {
        Path out = Path.of("target", "smoke-docs");
        List<TrialRecord> records = BenchMain.run(
                "--profile",
                "smoke",
                "--in-process",
                "--out",
                out.toString(),
                "--no-jfr",
                "--no-jmh",
                "--quiet-wait",
                "0");

        assertThat(records).filteredOn(TrialRecord::failed).isEmpty();
        Set<String> groups = records.stream().map(TrialRecord::group).collect(Collectors.toSet());
        assertThat(groups)
                .contains(
                        "burn-down",
                        "steady",
                        "enqueue",
                        "latency",
                        "backlog-200",
                        "backlog-2k",
                        "claim-plan",
                        "heap",
                        "nodes-2",
                        "schedules-300",
                        "schedule-cost-300");
        // The events scenarios check their own outcome (every task released and run once) and fail otherwise.
        assertThat(groups).containsAll(EventScenarios.NAMES);
        assertThat(records)
                .filteredOn(r -> EventScenarios.NAMES.contains(r.group()))
                .allSatisfy(r -> assertThat(r.number(figureOf(r.group()))).isPositive());
        Set<String> systems = records.stream().map(TrialRecord::system).collect(Collectors.toSet());
        assertThat(systems)
                .containsExactlyInAnyOrderElementsOf(java.util.stream.Stream.concat(
                                Systems.ALL.stream(), java.util.stream.Stream.of(Systems.SCHEDULES))
                        .toList());
        // With schedules, the slot inside the window fired every one of them, once; without, none fired.
        assertThat(records).filteredOn(r -> r.group().equals("schedules-300")).allSatisfy(r -> {
            assertThat(r.number("rate")).isPositive();
            assertThat(r.number("slot_tasks")).isEqualTo(r.system().equals(Systems.SCHEDULES) ? 300 : 0);
            assertThat(r.number("sched_tx")).isPositive();
        });
        assertThat(records)
                .filteredOn(r -> r.group().equals("schedule-cost-300"))
                .allSatisfy(r -> assertThat(r.number("sched_statements")).isPositive());
        assertThat(records)
                .filteredOn(r -> r.group().startsWith("schedule") && r.system().equals(Systems.SCHEDULES))
                .allSatisfy(r -> assertThat(r.number("sweep_ms")).isPositive());
        // The batch scenario checks its own outcome (one callback, every task counted) and fails otherwise.
        assertThat(records)
                .filteredOn(r -> r.group().equals("batch-burn"))
                .singleElement()
                .satisfies(r -> {
                    assertThat(r.number("rate_plain")).isPositive();
                    assertThat(r.number("rate_batch")).isPositive();
                });
        assertThat(records).filteredOn(r -> r.group().equals("burn-down")).allSatisfy(r -> assertThat(r.number("rate"))
                .isPositive());
        assertThat(Files.readString(out.resolve("BENCHMARKS.md")))
                .contains("## Summary", "## Targets", "db-scheduler", "jobrunr", "raw-sql");
        byte[] png = Files.readAllBytes(out.resolve("benchmarks").resolve("throughput.png"));
        assertThat(png).startsWith(0x89, 'P', 'N', 'G');
    }

    /** The headline figure of an events scenario. */
    private static String figureOf(String group) {
        return switch (group) {
            case "events-trigger" -> "trigger_ms";
            case "events-pairs" -> "pairs_per_s";
            default -> "rate_with";
        };
    }
}
