package dev.errand.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.enqueue.TaskRequest;
import dev.errand.node.NodeTarget;
import dev.errand.spring.autoconfigure.ErrandAutoConfiguration;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskHandler;
import dev.errand.task.TaskKind;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Engine management through {@link ErrandClient}, with two Spring applications as two nodes of one
 * cluster on one H2 database: this node's {@code isRunning}, {@code stop}, {@code start} and {@code repoll},
 * and the other node's repoll, stop and start through commands. Both poll once an hour, so that only a
 * repoll makes a node claim.
 */
class StarterClusterTest {

    static final Set<String> RAN_ON = ConcurrentHashMap.newKeySet();
    static final TaskKind<Void> PING = TaskKind.of("cluster-ping", Void.class);

    @ErrandTask("cluster-ping")
    static class Ping implements TaskHandler<Void> {
        private final String node;

        Ping(org.springframework.core.env.Environment environment) {
            this.node = environment.getProperty("errand.node-id");
        }

        @Override
        public void handle(Void payload, TaskContext context) {
            RAN_ON.add(node + ":" + context.taskId());
        }
    }

    private final String url = "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";

    private ApplicationContextRunner node(String nodeId) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataSourceAutoConfiguration.class,
                        DataSourceTransactionManagerAutoConfiguration.class,
                        ErrandAutoConfiguration.class))
                .withPropertyValues(
                        "spring.datasource.url=" + url,
                        "errand.node-id=" + nodeId,
                        "errand.poll-interval=1h",
                        "errand.heartbeat-interval=200ms",
                        "errand.shutdown-timeout=5s")
                .withBean(Ping.class);
    }

    @Test
    void theClientManagesThisNodeAndAnotherOne() {
        node("first").run(first -> node("second").run(second -> {
            ErrandClient here = first.getBean(ErrandClient.class);
            ErrandClient there = second.getBean(ErrandClient.class);
            assertThat(here.isRunning()).isTrue();

            // This node: stop, start again in the same JVM, repoll.
            assertThat(here.stop()).isTrue();
            assertThat(here.isRunning()).isFalse();
            here.start();
            assertThat(here.isRunning()).isTrue();
            // Past the restarted engine's first poll: from now only a repoll makes it claim.
            Thread.sleep(500);
            long mine = there.enqueue(
                            TaskRequest.builder(PING, null).node("first").build())
                    .id();
            // Enqueued on the other node: on H2 nothing wakes this one, and it polls once an hour.
            here.repoll();
            await().atMost(Duration.ofSeconds(10)).until(() -> RAN_ON.contains("first:" + mine));

            // The other node, through commands read at its heartbeat.
            here.stopProcessing(NodeTarget.node("second"));
            await().atMost(Duration.ofSeconds(10)).until(() -> !there.isRunning());
            here.startProcessing(NodeTarget.node("second"));
            await().atMost(Duration.ofSeconds(10)).until(there::isRunning);
            // Past the restarted node's first poll: from now only a repoll makes it claim.
            Thread.sleep(500);
            long theirs = here.enqueue(
                            TaskRequest.builder(PING, null).node("second").build())
                    .id();
            here.repoll(NodeTarget.node("second"));
            await().atMost(Duration.ofSeconds(10)).until(() -> RAN_ON.contains("second:" + theirs));

            assertThatThrownBy(() -> here.repoll(null)).hasMessageContaining("NodeTarget.node(id)");
            assertThatThrownBy(() -> here.stopProcessing(null)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> here.startProcessing(null)).isInstanceOf(IllegalArgumentException.class);
        }));
    }

    @Test
    void badClusterSettingsStopTheContextWithWhatToFix() {
        node("x".repeat(201)).run(context -> assertThat(failure(context)).contains("errand.node-id must be 1 to 200"));
        node("tab").withPropertyValues("errand.node-id=bad\u0001id").run(context -> assertThat(failure(context))
                .contains("nodeId must not contain control characters"));
        node("empty-group")
                .withPropertyValues("errand.node-groups[0]=eu", "errand.node-groups[1]=")
                .run(context -> assertThat(failure(context)).containsIgnoringCase("group"));
        node("conflict")
                .withPropertyValues("errand.exclusive=true", "errand.processing-enabled=false")
                .run(context -> assertThat(failure(context)).contains("conflict"));
    }

    /** Every message of the context's start-up failure and its causes, for what the operator reads. */
    private static String failure(org.springframework.context.ApplicationContext context) {
        Throwable failure = ((org.springframework.boot.test.context.assertj.AssertableApplicationContext) context)
                .getStartupFailure();
        assertThat(failure).as("the context refused to start").isNotNull();
        StringBuilder text = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            text.append(t).append('\n');
        }
        System.out.println(
                "[starter] " + text.toString().lines().reduce((a, b) -> b).orElse(""));
        return text.toString();
    }
}
