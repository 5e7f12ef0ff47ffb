package dev.errand.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The paging benchmark on a few thousand rows, on PostgreSQL: every mode creates the process and reads every row
 * (the benchmark fails otherwise). It checks that the benchmark works, not how fast.
 */
class ProcessPagingBenchSmokeTest {

    @Test
    void offsetKeysetAndClusterPagesAllReadEveryRow() throws Exception {
        Map<String, List<Double>> seconds =
                ProcessPagingBench.run("jdbc:postgresql://127.0.0.1:5432/test", "postgres", "", 5_000, 300, 100, 1);
        assertThat(seconds).containsOnlyKeys("offset", "keyset", "cluster");
        assertThat(seconds.values())
                .allSatisfy(times -> assertThat(times).singleElement().satisfies(time -> assertThat(time)
                        .isPositive()));
    }
}
