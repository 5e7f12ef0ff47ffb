package dev.errand.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.bench.Db;
import dev.errand.bench.Plan;
import dev.errand.bench.Systems;
import dev.errand.bench.TrialRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The report's ratios and targets, from made-up trials: no database, no JVMs. */
class ReportWriterTest {

    @Test
    void factorsKeepThreeSignificantDigits() {
        assertThat(ReportWriter.ratio(1, 600)).isEqualTo("0.00167 ×");
        assertThat(ReportWriter.ratio(26_065, 31_099)).isEqualTo("0.84 ×");
        assertThat(ReportWriter.ratio(19_832, 1_286)).isEqualTo("15.42 ×");
        assertThat(ReportWriter.ratio(60_000, 100)).isEqualTo("600 ×");
        assertThat(ReportWriter.ratio(1, 0)).isEqualTo("n/a");
    }

    @Test
    void latenciesAreComparedAsHowManyTimesLowerOrHigher() {
        assertThat(ReportWriter.latencyRatio(4.38, 2_618)).isEqualTo("598 × lower");
        assertThat(ReportWriter.latencyRatio(5.01, 56.75)).isEqualTo("11.33 × lower");
        assertThat(ReportWriter.latencyRatio(10, 5)).isEqualTo("2.00 × higher");
        assertThat(ReportWriter.latencyRatio(Double.NaN, 5)).isEqualTo("n/a");
    }

    @Test
    void theSummaryPrintsNoLatencyRatioAsZero() {
        StringBuilder md = new StringBuilder();
        writer().summary(md);

        assertThat(md.toString())
                .contains("| latency | p50_ms | errand | 4.38 | jobrunr | 2,618 | 598 × lower |")
                .contains("| burn-down | rate | errand | 20,000 | db-scheduler | 5,000 | 4.00 × |")
                .doesNotContain("0.00 ×");
    }

    @Test
    void aTargetOnErrandsOwnFigureIsCheckedInEveryPairingAndNamesIt() {
        StringBuilder md = new StringBuilder();
        writer().targets(md);

        assertThat(md.toString())
                .contains("| latency p50 ≤ 5 ms (LISTEN/NOTIFY) | errand with db-scheduler | 5.01 ms | **no** |")
                .contains("| latency p50 ≤ 5 ms (LISTEN/NOTIFY) | errand with jobrunr | 4.38 ms | **yes** |")
                .contains("| burn-down ≥ 3 × db-scheduler (same run) | burn-down: errand with db-scheduler | 4.00 × |"
                        + " **yes** |")
                .contains("| batch enqueue ≥ 50,000 tasks/s | — (enqueue not in this run) | n/a | not measured |");
    }

    @Test
    void onADatabaseWithoutListenNotifyTheLatencyTargetsSayTheyDoNotApply() {
        StringBuilder md = new StringBuilder();
        writer(new Db("jdbc:mariadb://127.0.0.1:3306/test", "root", "")).targets(md);

        assertThat(md.toString())
                .contains("| latency p50 ≤ 5 ms (LISTEN/NOTIFY) | errand with db-scheduler | 5.01 ms | does not apply:"
                        + " MARIADB has no LISTEN/NOTIFY, the worker polls every 100 ms |")
                .doesNotContain("| latency p50 ≤ 5 ms (LISTEN/NOTIFY) | errand with jobrunr | 4.38 ms | **yes** |")
                .contains("| burn-down ≥ 3 × db-scheduler (same run) | burn-down: errand with db-scheduler | 4.00 × |"
                        + " **yes** |");
    }

    @Test
    void schedulesAreComparedWithAndWithoutInTheirOwnSection() {
        Plan plan = Plan.full(2).only(List.of("schedule"));
        List<TrialRecord> records = new ArrayList<>();
        for (int round = 1; round <= 2; round++) {
            records.add(trial("schedules-10k", "errand", Systems.SCHEDULES, round, Map.of("rate", "40000")));
            records.add(trial(
                    "schedules-10k",
                    Systems.SCHEDULES,
                    Systems.SCHEDULES,
                    round,
                    Map.of("rate", Integer.toString(30_000 + 2_000 * round), "sweep_ms", "2000")));
            records.add(trial("schedule-cost-10k", "errand", Systems.SCHEDULES, round, Map.of("sched_tx", "600")));
            records.add(
                    trial("schedule-cost-10k", Systems.SCHEDULES, Systems.SCHEDULES, round, Map.of("sched_tx", "700")));
        }
        ReportWriter writer = new ReportWriter(null, plan, records, "test", "now", "0 0 0", "0 0 0", Map.of(), "");
        StringBuilder md = new StringBuilder();
        writer.summary(md);
        writer.schedules(md);

        assertThat(md.toString())
                .doesNotContain("| schedules-10k | rate |")
                .contains("## Schedules", "runs 10,000 on a one-minute cron")
                .contains("| rate | 40,000 (40,000–40,000) | 33,000 (32,000–34,000) | 0.83 × |")
                .contains("| sweep_ms | — | 2,000 (2,000–2,000) |  |")
                .contains("| sched_tx | 600 (600–600) | 700 (700–700) |");
    }

    private static ReportWriter writer() {
        return writer(new Db("jdbc:postgresql://127.0.0.1:5432/test", "postgres", ""));
    }

    private static ReportWriter writer(Db db) {
        Plan plan = Plan.full(3).only(List.of("burn-down", "latency"));
        List<TrialRecord> records = new ArrayList<>();
        for (int round = 1; round <= 3; round++) {
            records.add(trial("burn-down", "errand", "db-scheduler", round, Map.of("rate", "20000")));
            records.add(trial("burn-down", "db-scheduler", "db-scheduler", round, Map.of("rate", "5000")));
            records.add(trial("latency", "errand", "db-scheduler", round, latency(5.01)));
            records.add(trial("latency", "db-scheduler", "db-scheduler", round, latency(56.75)));
            records.add(trial("latency", "errand", "jobrunr", round, latency(4.38)));
            records.add(trial("latency", "jobrunr", "jobrunr", round, latency(2_618)));
        }
        return new ReportWriter(db, plan, records, "test", "now", "0 0 0", "0 0 0", Map.of(), "");
    }

    private static Map<String, String> latency(double p50) {
        return Map.of(
                "p50_ms", Double.toString(p50), "p95_ms", Double.toString(p50 * 2), "p99_ms", Double.toString(p50 * 3));
    }

    private static TrialRecord trial(String group, String system, String peer, int round, Map<String, String> result) {
        return new TrialRecord(group, system, peer, round, 0.0, "0 0 0", result);
    }
}
