package dev.errand.unit;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.node.NodeTarget;
import dev.errand.node.PinPolicy;
import dev.errand.node.QueueChange;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testkit.TestDatabase;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The cluster API's argument checks: each bad input gets a message that says what is wrong. Once, on H2. */
class ClusterArgumentsTest extends ErrandTestSupport {

    ClusterArgumentsTest() {
        super(Target.of(TestDatabase.H2));
    }

    @Test
    void badInputIsRejectedWithAClearMessage() {
        assertThatThrownBy(() -> TaskRequest.builder(dev.errand.task.TaskKind.of("work", Integer.class), 1)
                        .node(" bad"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("whitespace");
        assertThatThrownBy(() -> TaskRequest.builder(dev.errand.task.TaskKind.of("work", Integer.class), 1)
                        .nodeGroup(""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Node group");
        assertThatThrownBy(() -> TaskRequest.builder(dev.errand.task.TaskKind.of("work", Integer.class), 1)
                        .nodeGroup("a,b"))
                .hasMessageContaining("comma");
        assertThatThrownBy(() -> builder().nodeGroups("ok", "bad\nname")).hasMessageContaining("control characters");
        assertThatThrownBy(
                        () -> builder().exclusive(true).processingEnabled(false).build())
                .hasMessageContaining("conflict");
        assertThatThrownBy(
                        () -> builder().deadNodeTimeout(Duration.ofMillis(300)).build())
                .hasMessageContaining("deadNodeTimeout");
        assertThatThrownBy(() -> NodeTarget.node("")).hasMessageContaining("Node id");
        assertThatThrownBy(() -> new NodeTarget("a", "b")).hasMessageContaining("not both");
        assertThatThrownBy(() -> new QueueChange(null, null, null)).hasMessageContaining("at least one");
        assertThatThrownBy(() -> QueueChange.concurrency(0)).hasMessageContaining("concurrency");
        assertThatThrownBy(() -> PinPolicy.failAfter(Duration.ZERO)).hasMessageContaining("positive");
        Errand a = node(builder().nodeId("a"));
        assertThatThrownBy(() -> a.cluster().pauseQueue(" ")).hasMessageContaining("Queue name");
        assertThatThrownBy(() -> a.cluster().repoll(null)).hasMessageContaining("NodeTarget");
    }
}
