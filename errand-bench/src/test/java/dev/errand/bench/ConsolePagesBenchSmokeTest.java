package dev.errand.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The console pages' benchmark on 2,000 tasks, one round: the set-based fill works and
 * every page's read runs, on PostgreSQL, MariaDB and H2. It checks that the benchmark works, not how fast.
 */
class ConsolePagesBenchSmokeTest {

    @Test
    void fillsAndTimesEveryPageReadOnPostgresMariaDbAndH2() throws Exception {
        for (String url : new String[] {
            "jdbc:postgresql://127.0.0.1:5432/test",
            "jdbc:mariadb://127.0.0.1:3306/test",
            "jdbc:h2:mem:console-pages-smoke;DB_CLOSE_DELAY=-1"
        }) {
            Map<String, double[]> figures = ConsolePagesBench.run(
                    url, url.contains("postgresql") ? "postgres" : url.contains("h2") ? "sa" : "root", "", 2_000, 1);
            assertThat(figures.keySet())
                    .containsExactly(
                            "overview-counts",
                            "overview-snapshot",
                            "overview-load",
                            "throughput",
                            "node-throughput",
                            "nodes-and-leader",
                            "schedules",
                            "batches",
                            "processes",
                            "events-waiting",
                            "events-counts",
                            "events-premature",
                            "cluster",
                            "history-first-page-exact",
                            "history-first-page",
                            "history-kind-failed",
                            "history-error-text-all",
                            "history-error-text",
                            "tasks-first-page",
                            "tasks-error-text-all",
                            "tasks-error-text");
            assertThat(figures.values()).allSatisfy(ms -> assertThat(ms[0]).isPositive());
        }
    }
}
