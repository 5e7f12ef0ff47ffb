package dev.errand.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The task-list benchmark on 2,000 tasks, one round, on PostgreSQL and MariaDB: the set-based fill works and
 * every read runs. It checks that the benchmark works, not how fast.
 */
class TaskListBenchSmokeTest {

    @Test
    void fillsAndTimesEveryReadOnPostgresAndMariaDb() throws Exception {
        for (String url :
                new String[] {"jdbc:postgresql://127.0.0.1:5432/test", "jdbc:mariadb://127.0.0.1:3306/test"}) {
            Map<String, double[]> figures =
                    TaskListBench.run(url, url.contains("postgresql") ? "postgres" : "root", "", 2_000, 1);
            assertThat(figures.keySet())
                    .containsExactly(
                            "first-page",
                            "deep-page",
                            "count",
                            "failed-of-a-kind",
                            "error-text",
                            "failed-error-text",
                            "bulk-count",
                            "offset-page-deep");
            assertThat(figures.values()).allSatisfy(ms -> assertThat(ms[0]).isPositive());
        }
    }
}
