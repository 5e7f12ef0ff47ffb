package dev.errand.jpa.unit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.jpa.EntityQueues;
import dev.errand.jpa.queue.EntityQueueDefinition;
import dev.errand.jpa.spi.EntityTransactions;
import dev.errand.jpa.state.QueueState;
import dev.errand.jpa.state.QueueStatus;
import dev.errand.jpa.testing.Message;
import dev.errand.retry.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Every public entry point that needs no database refuses bad arguments with a message that says what to do. */
class ArgumentValidationTest {

    private static EntityQueueDefinition.Builder<Message> definition() {
        return EntityQueueDefinition.builder(Message.class, "sendState", (message, context) -> {});
    }

    @Test
    void aDefinitionRefusesMissingPartsAndValuesOutOfRange() {
        assertThatThrownBy(() -> EntityQueueDefinition.builder(null, "sendState", (message, context) -> {}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("@Entity class");
        assertThatThrownBy(() -> EntityQueueDefinition.builder(Message.class, " ", (message, context) -> {}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("QueueState field");
        assertThatThrownBy(() -> EntityQueueDefinition.builder(Message.class, "sendState", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("processes one item");
        assertThatThrownBy(() -> definition().name(" send"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("whitespace");
        assertThatThrownBy(() -> definition().name("send\nmore"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("control characters");
        assertThatThrownBy(() -> definition().name("q".repeat(101)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most 100");
        assertThatThrownBy(() -> definition().concurrency(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("concurrency must be between 1 and 1000, got 0");
        assertThatThrownBy(() -> definition().batchSize(10_001))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("batchSize must be between 1 and 10000, got 10001");
        assertThatThrownBy(() -> definition().pollInterval(Duration.ofMillis(5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("pollInterval must be between 10ms and 1h, got 5ms");
        assertThatThrownBy(() -> definition().pollInterval(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("pollInterval must be between 10ms and 1h, got nothing");
        assertThatThrownBy(() -> definition().maxAttempts(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxAttempts must be between 1 and 1000, got 0");
        assertThatThrownBy(() -> definition().retryPolicy(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("RetryPolicy.fixed");
        assertThatThrownBy(() -> definition().onFinalFailure(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("leave it unset");
    }

    @Test
    void aDefinitionHasDefaultsAndADelayListCoversItsAttempts() {
        EntityQueueDefinition<Message> defaults = definition().build();
        assertThat(defaults.name()).isEqualTo("Message.sendState");
        assertThat(defaults.concurrency()).isEqualTo(4);
        assertThat(defaults.batchSize()).isEqualTo(100);
        assertThat(defaults.pollInterval()).isEqualTo(Duration.ofMillis(500));
        assertThat(defaults.maxAttempts()).isEqualTo(5);
        assertThat(defaults.finalFailureCallback()).isNull();

        EntityQueueDefinition<Message> listed = definition()
                .retryPolicy(RetryPolicy.delays(Duration.ofSeconds(1), Duration.ofSeconds(2)))
                .build();
        assertThat(listed.maxAttempts()).isEqualTo(3);
        EntityQueueDefinition<Message> changed =
                listed.toBuilder().name("sms").maxAttempts(7).build();
        assertThat(changed.name()).isEqualTo("sms");
        assertThat(changed.maxAttempts()).isEqualTo(7);
        assertThat(listed.name()).as("a definition does not change").isEqualTo("Message.sendState");
    }

    @Test
    void aNodeBuilderRefusesMissingPartsAndValuesOutOfRange() {
        assertThatThrownBy(() -> EntityQueues.builder(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("EntityManagerFactory must not be null");
        assertThatThrownBy(() -> EntityTransactions.resourceLocal(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("EntityManagerFactory must not be null");
    }

    @Test
    void aQueueStateRefusesToEnqueueWithoutATime() {
        QueueState state = new QueueState();
        assertThat(state.status()).as("in no queue yet").isNull();
        assertThatThrownBy(() -> state.enqueueAt(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("call enqueue()");
        assertThatThrownBy(() -> QueueState.pendingAt(null)).isInstanceOf(IllegalArgumentException.class);

        Instant at = Instant.parse("2030-01-01T00:00:00Z");
        QueueState later = QueueState.pendingAt(at);
        assertThat(later.status()).isEqualTo(QueueStatus.PENDING);
        assertThat(later.nextAttemptAt()).isEqualTo(at);
        QueueState now = QueueState.pending();
        assertThat(now.status()).isEqualTo(QueueStatus.PENDING);
        assertThat(now.nextAttemptAt())
                .as("stamped with the database's time by the node")
                .isNull();
        assertThat(now.attempts()).isZero();
    }
}
