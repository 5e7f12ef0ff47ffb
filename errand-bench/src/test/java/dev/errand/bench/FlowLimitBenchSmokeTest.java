package dev.errand.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The flow-limit benchmark on a few hundred tasks, on PostgreSQL and MariaDB: every variant drains its
 * backlog (the benchmark fails otherwise). It checks that the benchmark works, not how fast.
 */
class FlowLimitBenchSmokeTest {

    @Test
    void everyVariantDrainsItsBacklogOnPostgresAndMariaDb() throws Exception {
        for (String url :
                new String[] {"jdbc:postgresql://127.0.0.1:5432/test", "jdbc:mariadb://127.0.0.1:3306/test"}) {
            Map<String, Double> rates =
                    FlowLimitBench.run(url, url.contains("postgresql") ? "postgres" : "root", "", 300, 1);
            assertThat(rates.keySet()).containsExactlyElementsOf(FlowLimitBench.VARIANTS);
            assertThat(rates.values()).allSatisfy(rate -> assertThat(rate).isPositive());
        }
    }
}
