package dev.errand.unit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.retry.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The retry policies' arithmetic and argument checks (no database involved). */
class RetryPolicyTest {

    @Test
    void fixedDelayIsConstant() {
        RetryPolicy policy = RetryPolicy.fixed(Duration.ofSeconds(7));
        assertThat(policy.delayAfter(1)).isEqualTo(Duration.ofSeconds(7));
        assertThat(policy.delayAfter(50)).isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void exponentialDoublesUpToTheCap() {
        RetryPolicy policy = RetryPolicy.exponential(Duration.ofSeconds(1), Duration.ofSeconds(10))
                .withJitter(0);
        assertThat(policy.delayAfter(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(policy.delayAfter(2)).isEqualTo(Duration.ofSeconds(2));
        assertThat(policy.delayAfter(4)).isEqualTo(Duration.ofSeconds(8));
        assertThat(policy.delayAfter(5)).isEqualTo(Duration.ofSeconds(10));
        assertThat(policy.delayAfter(1_000)).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void exponentialJitterStaysWithinItsBandAndUnderTheCap() {
        RetryPolicy policy = RetryPolicy.exponential(Duration.ofSeconds(10), Duration.ofSeconds(30))
                .withJitter(0.5)
                .withFactor(3);
        for (int i = 0; i < 1_000; i++) {
            assertThat(policy.delayAfter(1)).isBetween(Duration.ofSeconds(5), Duration.ofSeconds(15));
            assertThat(policy.delayAfter(3)).isBetween(Duration.ofSeconds(15), Duration.ofSeconds(30));
        }
    }

    @Test
    void delayListRepeatsItsLastDelay() {
        RetryPolicy policy = RetryPolicy.delays(Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(30));
        assertThat(policy.delayAfter(1)).isEqualTo(Duration.ofSeconds(10));
        assertThat(policy.delayAfter(3)).isEqualTo(Duration.ofSeconds(30));
        assertThat(policy.delayAfter(9)).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void badArgumentsSayWhatIsAccepted() {
        assertThatThrownBy(() -> RetryPolicy.fixed(Duration.ofSeconds(-1))).hasMessageContaining("zero or more");
        assertThatThrownBy(() -> RetryPolicy.fixed(null)).hasMessageContaining("zero or more");
        assertThatThrownBy(() -> RetryPolicy.delays()).hasMessageContaining("at least one delay");
        assertThatThrownBy(() -> RetryPolicy.delays(Duration.ofSeconds(1), null))
                .hasMessageContaining("zero or more");
        assertThatThrownBy(() -> RetryPolicy.exponential(Duration.ZERO, Duration.ofSeconds(1)))
                .hasMessageContaining("more than zero");
        assertThatThrownBy(() -> RetryPolicy.exponential(Duration.ofSeconds(5), Duration.ofSeconds(1)))
                .hasMessageContaining("must not be below");
        assertThatThrownBy(() -> RetryPolicy.exponential(Duration.ofSeconds(1), Duration.ofSeconds(5))
                        .withFactor(0.5))
                .hasMessageContaining("1.0 or more");
        assertThatThrownBy(() -> RetryPolicy.exponential(Duration.ofSeconds(1), Duration.ofSeconds(5))
                        .withJitter(1.0))
                .hasMessageContaining("[0.0, 1.0)");
        assertThatThrownBy(() -> RetryPolicy.fixed(Duration.ZERO).delayAfter(0)).hasMessageContaining("starts at 1");
    }
}
