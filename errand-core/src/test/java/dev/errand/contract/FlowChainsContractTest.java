package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskHandler;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Spans;
import dev.errand.testing.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Chains: once a node completes a limited kind's tasks quickly, a claim takes several of them for one slot, and the
 * node runs them one after another. The limit still holds at every moment, every task runs once, and a chain never
 * mixes into another slot's.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class FlowChainsContractTest extends ErrandTestSupport {

    FlowChainsContractTest(Target target) {
        super(target);
    }

    /** A handler that records its span (System.nanoTime, one JVM) under its key, and counts its runs per task. */
    private static TaskHandler<String> recording(
            Map<String, ConcurrentLinkedQueue<long[]>> spans, Map<Long, Integer> runs) {
        return (key, ctx) -> {
            long started = System.nanoTime();
            runs.merge(ctx.taskId(), 1, Integer::sum);
            Thread.sleep(1); // the task's work
            spans.computeIfAbsent(key, k -> new ConcurrentLinkedQueue<>()).add(new long[] {started, System.nanoTime()});
        };
    }

    private long chainsSeen(String table) throws Exception {
        return scalar("SELECT COUNT(*) FROM " + prefix + table + " WHERE chain_ids IS NOT NULL");
    }

    @Test
    void fastTasksRunInChainsAndTheLimitsHoldAtEveryMoment() throws Exception {
        Map<String, ConcurrentLinkedQueue<long[]>> spans = new ConcurrentHashMap<>();
        Map<Long, Integer> runs = new ConcurrentHashMap<>();
        Errand[] nodes = new Errand[2];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = node(builder()
                    .nodeId("node-" + i)
                    .queue("default", 6)
                    .register(TaskDefinition.builder("limited", String.class, recording(spans, runs))
                            .mode(ExecutionMode.NON_TRANSACTIONAL)
                            .concurrencyLimit(3)
                            .build())
                    .register(TaskDefinition.builder("keyed", String.class, recording(spans, runs))
                            .mode(ExecutionMode.NON_TRANSACTIONAL)
                            .concurrencyLimitPerKey(1)
                            .build()));
        }
        List<TaskRequest> requests = new ArrayList<>();
        for (int i = 0; i < 1_200; i++) {
            requests.add(TaskRequest.of("limited", "all"));
            String key = "k" + (i % 12);
            requests.add(TaskRequest.builder("keyed", key).limitKey(key).build());
        }
        nodes[0].enqueueAll(requests);
        AtomicLong chains = new AtomicLong();
        for (Errand node : nodes) {
            node.start();
        }
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    chains.accumulateAndGet(chainsSeen("flow_slot") + chainsSeen("flow_key_slot"), Math::max);
                    return taskRows() == 0;
                });

        assertThat(runs).as("every task ran once").hasSize(2_400).allSatisfy((id, count) -> assertThat(count)
                .isEqualTo(1));
        assertThat(Spans.mostAtOnce(spans.get("all")))
                .as("limited tasks running at once")
                .isBetween(1, 3);
        for (int i = 0; i < 12; i++) {
            assertThat(Spans.mostAtOnce(spans.get("k" + i)))
                    .as("tasks of key k%s running at once", i)
                    .isEqualTo(1);
        }
        assertThat(chains.get()).as("slots that held a chain of several tasks").isPositive();
    }
}
