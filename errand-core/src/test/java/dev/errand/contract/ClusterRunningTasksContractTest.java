package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.node.NodeInfo;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskKind;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code NodeInfo.runningTasks}: the running tasks whose lease each node holds, on a real database. */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class ClusterRunningTasksContractTest extends ErrandTestSupport {

    private final CountDownLatch release = new CountDownLatch(1);

    ClusterRunningTasksContractTest(Target target) {
        super(target);
    }

    private Errand started(String nodeId, int concurrency) {
        Errand node = node(builder()
                .nodeId(nodeId)
                .queue("default", concurrency)
                .register(TaskDefinition.builder("hold", Integer.class, (n, ctx) -> {
                            if (!release.await(30, TimeUnit.SECONDS)) {
                                throw new IllegalStateException("never released");
                            }
                        })
                        .build()));
        node.start();
        return node;
    }

    private static Map<String, Long> running(Errand node) {
        return node.cluster().nodes().stream().collect(Collectors.toMap(NodeInfo::nodeId, NodeInfo::runningTasks));
    }

    @Test
    void eachNodeShowsTheRunningTasksItHolds() throws Exception {
        Errand a = started("node-a", 3);
        Errand idle = node(builder().nodeId("node-idle").processingEnabled(false));
        idle.start();
        for (int i = 0; i < 3; i++) {
            a.enqueue(TaskRequest.of(TaskKind.of("hold", Integer.class), i));
        }
        try {
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(running(idle))
                    .containsEntry("node-a", 3L)
                    .containsEntry("node-idle", 0L));
        } finally {
            release.countDown();
        }
        await().atMost(Duration.ofSeconds(15))
                .untilAsserted(() -> assertThat(running(a)).containsEntry("node-a", 0L));
    }
}
