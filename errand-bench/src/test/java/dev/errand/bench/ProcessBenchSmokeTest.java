package dev.errand.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The process benchmark on a few thousand rows with two worker JVMs, on PostgreSQL: the process succeeds and every
 * row lands in the sink once (the benchmark fails otherwise). It checks that the benchmark works, not how fast.
 */
class ProcessBenchSmokeTest {

    @Test
    void aSmallProcessRunsOnTwoWorkerJvms() throws Exception {
        Map<String, String> figures = ProcessBench.run(
                "jdbc:postgresql://127.0.0.1:5432/test",
                "postgres",
                "",
                new ProcessBench.Size(5_000, 2, 500, 100, 1_000));
        assertThat(figures).containsEntry("rows", "5000").containsEntry("batches", "50");
        assertThat(Double.parseDouble(figures.get("rows_per_s"))).isPositive();
        System.out.println(figures);
    }
}
