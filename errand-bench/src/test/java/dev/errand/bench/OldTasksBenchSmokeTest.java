package dev.errand.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The old-tasks benchmark on a few hundred tasks, on PostgreSQL and MariaDB: both claims take every fresh
 * task and none of the old ones (the benchmark fails otherwise). It checks that the benchmark works, not
 * how fast.
 */
class OldTasksBenchSmokeTest {

    @Test
    void bothClaimsTakeEveryFreshTaskBesideOldOnesOnPostgresAndMariaDb() throws Exception {
        for (String url :
                new String[] {"jdbc:postgresql://127.0.0.1:5432/test", "jdbc:mariadb://127.0.0.1:3306/test"}) {
            Map<String, Double> ratios =
                    OldTasksBench.run(url, url.contains("postgresql") ? "postgres" : "root", "", 300, 300, 1);
            assertThat(ratios.keySet()).containsExactlyElementsOf(OldTasksBench.CASES);
            assertThat(ratios.values()).allSatisfy(ratio -> assertThat(ratio).isPositive());
        }
    }

    @Test
    void theRecentClaimDiffersFromTheFullOneOnlyByItsBound() {
        for (boolean postgres : new boolean[] {true, false}) {
            String full = OldTasksBench.claimSql("t", postgres, false);
            String recent = OldTasksBench.claimSql("t", postgres, true);
            assertThat(recent).startsWith(full.substring(0, full.indexOf(" AND (expires_at")));
            assertThat(recent.replace(
                            recent.substring(recent.indexOf(" AND run_at > "), recent.indexOf(" AND (expires_at")), ""))
                    .isEqualTo(full);
        }
    }
}
