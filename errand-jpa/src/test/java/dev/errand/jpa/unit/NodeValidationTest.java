package dev.errand.jpa.unit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.jpa.EntityQueues;
import dev.errand.jpa.EntityQueuesBuilder;
import dev.errand.jpa.queue.EntityQueueDefinition;
import dev.errand.jpa.testing.Message;
import dev.errand.jpa.testing.QueueTestSupport;
import dev.errand.jpa.testing.Unindexed;
import dev.errand.testkit.TestDatabase;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Building and using a node with bad arguments, on H2: each is refused with a message that names what is
 * wrong and what to do, before anything runs.
 */
class NodeValidationTest extends QueueTestSupport {

    NodeValidationTest() {
        super(TestDatabase.H2);
    }

    @Test
    void settersRefuseValuesOutOfRange() {
        EntityQueuesBuilder builder = node();
        assertThatThrownBy(() -> builder.register(null)).hasMessageContaining("must not be null");
        assertThatThrownBy(() -> builder.nodeId("")).hasMessageContaining("Node id must be 1 to 200");
        assertThatThrownBy(() -> builder.leaseDuration(Duration.ofMillis(10)))
                .hasMessage("leaseDuration must be between 1s and 1d, got 10ms");
        assertThatThrownBy(() -> builder.rescueInterval(null))
                .hasMessage("rescueInterval must be between 100ms and 1h, got nothing");
        assertThatThrownBy(() -> builder.shutdownTimeout(Duration.ofSeconds(-1)))
                .hasMessageContaining("shutdownTimeout must be between 0s and 1h");
        assertThatThrownBy(() -> builder.clock(null)).hasMessageContaining("database's clock");
        assertThatThrownBy(() -> builder.transactions(null)).hasMessageContaining("must not be null");
        assertThatThrownBy(builder::build)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("register(...)");
    }

    @Test
    void buildRefusesQueuesItCannotServe() {
        assertThatThrownBy(
                        () -> node().register(sending((message, context) -> {}).build())
                                .register(sending((message, context) -> {}).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'send' is already registered");
        assertThatThrownBy(() -> node().register(
                                EntityQueueDefinition.builder(Message.class, "sendStatus", (message, context) -> {})
                                        .build())
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has no embedded QueueState attribute 'sendStatus'");
        assertThatThrownBy(() -> node().register(
                                EntityQueueDefinition.builder(Message.class, "body", (message, context) -> {})
                                        .build())
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has no embedded QueueState attribute 'body'");
        assertThatThrownBy(() -> node().register(
                                EntityQueueDefinition.builder(String.class, "state", (text, context) -> {})
                                        .build())
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.String is not an entity of this EntityManagerFactory");
    }

    @Test
    void lookupsAndLifecycleRefuseMisuse() {
        EntityQueues node =
                built(node().register(sending((message, context) -> {}).build()));
        assertThatThrownBy(() -> node.queue("mail", Message.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("No entity queue is named 'mail'; the queues are [send]");
        assertThatThrownBy(() -> node.queue("send", Unindexed.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("holds dev.errand.jpa.testing.Message, not dev.errand.jpa.testing.Unindexed");
        assertThat(node.queues()).hasSize(1);
        assertThatThrownBy(() -> node.stop(null)).hasMessageContaining("zero or more");
        node.start();
        node.start();
        assertThat(node.isRunning()).isTrue();
        assertThat(node.stop(Duration.ofSeconds(5))).isTrue();
        assertThat(node.isRunning()).isFalse();
        assertThatThrownBy(node::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("build new ones");
    }
}
