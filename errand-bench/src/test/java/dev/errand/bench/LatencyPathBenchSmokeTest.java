package dev.errand.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The latency-path benchmark on a few samples on PostgreSQL: every segment is measured, and the segments of the
 * path fit in the total. It checks that the benchmark works, not how fast the path is.
 */
class LatencyPathBenchSmokeTest {

    @Test
    void measuresEverySegmentOfThePath() throws Exception {
        Map<String, double[]> segments =
                LatencyPathBench.run("jdbc:postgresql://127.0.0.1:5432/test", "postgres", "", 20);
        assertThat(segments.keySet()).containsExactlyElementsOf(LatencyPathBench.SEGMENTS);
        assertThat(segments.values()).allSatisfy(q -> {
            assertThat(q[0]).isPositive();
            assertThat(q[1]).isGreaterThanOrEqualTo(q[0]);
        });
        double parts = segments.get("enqueue")[0]
                + segments.get("to-claim")[0]
                + segments.get("claim")[0]
                + segments.get("hand-off")[0];
        // Medians of parts need not add up to the median of the whole, but they cannot be far from it.
        assertThat(parts).isBetween(segments.get("total")[0] * 0.5, segments.get("total")[0] * 2);
    }

    @Test
    void badArgumentsAreRefusedWithTheUsage() {
        assertThatThrownBy(
                        () -> LatencyPathBench.main(new String[] {"jdbc:postgresql://127.0.0.1:5432/test", "postgres"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("usage: LatencyPathBench");
        assertThatThrownBy(() -> LatencyPathBench.main(
                        new String[] {"jdbc:postgresql://127.0.0.1:5432/test", "postgres", "-", "0"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("samples, a positive whole number");
    }
}
