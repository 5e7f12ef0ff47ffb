package dev.errand.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.config.ClaimOrder;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The claim-order benchmark on a few hundred tasks, on PostgreSQL and MariaDB: both orders claim their whole
 * backlog (the benchmark fails otherwise). It checks that the benchmark works, not how fast.
 */
class ClaimOrderBenchSmokeTest {

    @Test
    void bothOrdersClaimTheirBacklogOnPostgresAndMariaDb() throws Exception {
        for (String url :
                new String[] {"jdbc:postgresql://127.0.0.1:5432/test", "jdbc:mariadb://127.0.0.1:3306/test"}) {
            Map<ClaimOrder, Double> rates =
                    ClaimOrderBench.run(url, url.contains("postgresql") ? "postgres" : "root", "", 300, 1);
            assertThat(rates.keySet()).containsExactly(ClaimOrder.values());
            assertThat(rates.values()).allSatisfy(rate -> assertThat(rate).isPositive());
        }
    }
}
