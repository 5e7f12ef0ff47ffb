package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.flow.FlowLimit;
import dev.errand.flow.QueueLimit;
import dev.errand.flow.RateLimit;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rate limits per key ({@code TaskDefinition.Builder.rateLimitPerKey}) and per queue ({@code
 * ErrandBuilder.queueRateLimit}): the starts in any window, across nodes, keys and other queues running in parallel,
 * run-time changes, what the admin API shows, bad input, and the pruning of the rate slots of idle keys.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class FlowRatesContractTest extends ErrandTestSupport {

    FlowRatesContractTest(Target target) {
        super(target);
    }

    private static TaskDefinition.Builder<String> tenantCall(String kind, AtomicInteger started) {
        return TaskDefinition.builder(kind, String.class, (tenant, ctx) -> started.incrementAndGet())
                .mode(ExecutionMode.NON_TRANSACTIONAL);
    }

    private static TaskRequest forTenant(String kind, String tenant) {
        return TaskRequest.builder(kind, tenant).limitKey(tenant).build();
    }

    @Test
    void aRateLimitPerKeyBoundsEachKeysStartsInAnyWindowAcrossNodesWhileKeysRunInParallel() throws Exception {
        AtomicInteger started = new AtomicInteger();
        Errand[] nodes = new Errand[3];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = node(builder()
                    .nodeId("node-" + i)
                    .queue("default", 4)
                    .succeededRetention(Duration.ofDays(1))
                    .register(tenantCall("tenant-call", started)
                            .rateLimitPerKey(2, Duration.ofSeconds(1))
                            .build()));
        }
        Map<Long, String> keyOf = new LinkedHashMap<>();
        for (int i = 0; i < 5; i++) {
            for (String tenant : List.of("t1", "t2", "t3")) {
                keyOf.put(nodes[0].enqueue(forTenant("tenant-call", tenant)).id(), tenant);
            }
        }
        for (Errand node : nodes) {
            node.start();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> tasksIn(TaskState.SUCCEEDED) == 15);

        Map<String, List<Instant>> startsByKey = new LinkedHashMap<>();
        List<Instant> all = new ArrayList<>();
        for (Map.Entry<Long, String> task : keyOf.entrySet()) {
            assertThat(task(nodes[0], task.getKey()).attempt()).isEqualTo(1);
            Instant start = task(nodes[0], task.getKey()).startedAt();
            startsByKey.computeIfAbsent(task.getValue(), k -> new ArrayList<>()).add(start);
            all.add(start);
        }
        for (Map.Entry<String, List<Instant>> key : startsByKey.entrySet()) {
            List<Instant> starts = key.getValue();
            starts.sort(null);
            assertThat(mostInAWindow(starts, Duration.ofSeconds(1)))
                    .as("starts of key %s in any second", key.getKey())
                    .isLessThanOrEqualTo(2);
            assertThat(Duration.between(starts.get(0), starts.get(4)))
                    .as("the 5th start of key %s uses a slot for the 3rd time", key.getKey())
                    .isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        }
        all.sort(null);
        assertThat(mostInAWindow(all, Duration.ofSeconds(1)))
                .as("keys are limited apart: the three keys start in the same second")
                .isGreaterThan(2);
    }

    /** How many changes of the cluster-wide controls' audit have {@code action} and a detail like {@code detail}. */
    private long audited(String action, String detail) throws Exception {
        return scalar("SELECT COUNT(*) FROM " + prefix + "control_change WHERE action = '" + action
                + "' AND detail LIKE '" + detail + "'");
    }

    /** The most of {@code sorted} that fall in one window of {@code length} starting at one of them. */
    private static long mostInAWindow(List<Instant> sorted, Duration length) {
        long most = 0;
        for (Instant from : sorted) {
            Instant end = from.plus(length);
            most = Math.max(
                    most,
                    sorted.stream()
                            .filter(t -> !t.isBefore(from) && t.isBefore(end))
                            .count());
        }
        return most;
    }

    @Test
    void aRateLimitPerKeyChangedAtRunTimeAppliesOnEveryNodeAndTheAdminShowsIt() throws Exception {
        AtomicInteger started = new AtomicInteger();
        Errand[] nodes = new Errand[2];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = node(builder()
                    .nodeId("node-" + i)
                    .queue("default", 4)
                    .register(tenantCall("tenant-call", started)
                            .rateLimitPerKey(1, Duration.ofHours(1))
                            .build()));
        }
        for (String tenant : List.of("a", "a", "a", "b", "b")) {
            nodes[0].enqueue(forTenant("tenant-call", tenant));
        }
        nodes[0].start();
        nodes[1].start();
        await().atMost(Duration.ofSeconds(10)).until(() -> started.get() == 2);
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(nodes[1].flow().limits())
                        .singleElement()
                        .satisfies(limit -> {
                            assertThat(limit.ratePerKey().inForce()).isEqualTo(new RateLimit(1, Duration.ofHours(1)));
                            assertThat(limit.rate().inForce()).isNull();
                            assertThat(limit.slotsInUse())
                                    .as("starts in the window, over all keys")
                                    .isEqualTo(2);
                            assertThat(limit.waiting()).isEqualTo(3);
                        }));
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> started.get() == 2);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE state = 'pending' AND attempt = 0"))
                .as("held back, not failed: no attempt spent")
                .isEqualTo(3);

        nodes[0].flow().changeRateLimitPerKey("tenant-call", new RateLimit(5, Duration.ofSeconds(1)));
        FlowLimit changed = nodes[1].flow().limits().get(0);
        assertThat(changed.ratePerKey())
                .isEqualTo(new FlowLimit.Rate(
                        new RateLimit(1, Duration.ofHours(1)), new RateLimit(5, Duration.ofSeconds(1))));
        await().atMost(Duration.ofSeconds(30)).until(() -> started.get() == 5);
        assertThat(audited("change-flow-limit", "per-key-rate=5 per %"))
                .as("the change is audited")
                .isEqualTo(1);

        assertThatThrownBy(() -> nodes[0].flow().changeRateLimitPerKey("tenant-call", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be null");
        assertThatThrownBy(() ->
                        nodes[0].flow().changeRateLimitPerKey("no-such-kind", new RateLimit(1, Duration.ofSeconds(1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not registered");
        assertThatThrownBy(() -> nodes[0].flow().changeLimit("tenant-call", 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has a per-key rate limit in force");
        assertThatThrownBy(
                        () -> nodes[0].flow().changeRateLimit("tenant-call", new RateLimit(1, Duration.ofSeconds(1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has a per-key rate limit in force");

        nodes[1].flow().resetLimits("tenant-call");
        assertThat(nodes[0].flow().limits().get(0).ratePerKey())
                .isEqualTo(new FlowLimit.Rate(new RateLimit(1, Duration.ofHours(1)), null));
    }

    @Test
    void badPerKeyRateLimitsAreRefusedWithWhatToDo() {
        AtomicInteger started = new AtomicInteger();
        assertThatThrownBy(() -> tenantCall("k", started).rateLimitPerKey(0, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 and 10000");
        assertThatThrownBy(() -> tenantCall("k", started).rateLimitPerKey(10_001, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 and 10000");
        assertThatThrownBy(() -> tenantCall("k", started).rateLimitPerKey(3, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("period of a rate limit must be between 1 ms and 24 h");
        assertThatThrownBy(() -> tenantCall("k", started).rateLimitPerKey(3, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("period of a rate limit");
        assertThatThrownBy(() ->
                        tenantCall("k", started).concurrencyLimitPerKey(1).rateLimitPerKey(3, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has two of")
                .hasMessageContaining("keep the one");
        assertThatThrownBy(() -> tenantCall("k", started)
                        .rateLimitPerKey(3, Duration.ofSeconds(1))
                        .rateLimit(3, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has two of");
    }

    @Test
    void theLeaderPrunesTheRateSlotsOfIdleKeysOnlyOnceTheirWindowHasPassed() throws Exception {
        AtomicInteger started = new AtomicInteger();
        Errand node = node(builder()
                .queue("default", 4)
                .pruneInterval(Duration.ofSeconds(1))
                .register(tenantCall("hourly", started)
                        .rateLimitPerKey(1, Duration.ofHours(1))
                        .build())
                .register(tenantCall("quick", started)
                        .rateLimitPerKey(1, Duration.ofMillis(300))
                        .build()));
        for (String tenant : List.of("a", "b")) {
            node.enqueue(forTenant("hourly", tenant));
            node.enqueue(forTenant("quick", tenant));
        }
        node.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> taskRows() == 0);
        String rows = "SELECT COUNT(*) FROM " + prefix + "flow_key_rate_slot WHERE kind = ";
        await().atMost(Duration.ofSeconds(20)).until(() -> scalar(rows + "'quick'") == 0);
        assertThat(scalar(rows + "'hourly'"))
                .as("idle keys whose last start is within the window keep their rate slots")
                .isEqualTo(2);

        long held = node.enqueue(forTenant("hourly", "a")).id();
        node.enqueue(forTenant("quick", "a"));
        await().atMost(Duration.ofSeconds(20)).until(() -> started.get() == 5);
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> started.get() == 5);
        assertThat(task(node, held).state())
                .as("the window of key a of 'hourly' still holds its first start")
                .isEqualTo(TaskState.PENDING);
    }

    @Test
    void aQueueRateLimitBoundsTheStartsOfAllItsKindsAcrossNodesWhileOtherQueuesFlow() throws Exception {
        AtomicInteger started = new AtomicInteger();
        Errand[] nodes = new Errand[3];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = node(builder()
                    .nodeId("node-" + i)
                    .queue("default", 4)
                    .queue("partner", 4)
                    .queueRateLimit("partner", 2, Duration.ofSeconds(1))
                    .succeededRetention(Duration.ofDays(1))
                    .register(tenantCall("a", started).build())
                    .register(tenantCall("b", started).build()));
        }
        List<Long> partner = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            partner.add(nodes[0].enqueue(TaskRequest.builder(i % 2 == 0 ? "a" : "b", "p" + i)
                            .queue("partner")
                            .build())
                    .id());
        }
        for (int i = 0; i < 10; i++) {
            nodes[0].enqueue(TaskRequest.builder("a", "d" + i).queue("default").build());
        }
        for (Errand node : nodes) {
            node.start();
        }
        await().atMost(Duration.ofSeconds(20))
                .until(() -> scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE queue = 'default' AND state = '"
                                + TaskState.SUCCEEDED.dbValue() + "'")
                        == 10);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE queue = 'partner' AND state = 'pending'"))
                .as("the other queue ran while the limited one waits on its window")
                .isGreaterThan(0);
        await().atMost(Duration.ofSeconds(30)).until(() -> tasksIn(TaskState.SUCCEEDED) == 17);
        List<Instant> starts = new ArrayList<>();
        for (long id : partner) {
            assertThat(task(nodes[0], id).attempt()).isEqualTo(1);
            starts.add(task(nodes[0], id).startedAt());
        }
        starts.sort(null);
        assertThat(mostInAWindow(starts, Duration.ofSeconds(1)))
                .as("starts of the queue's two kinds in any second")
                .isLessThanOrEqualTo(2);
        assertThat(Duration.between(starts.get(0), starts.get(6)))
                .as("the 7th start uses a slot for the 4th time")
                .isGreaterThanOrEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void aQueueRateLimitChangedAtRunTimeAppliesOnEveryNodeAndTheAdminShowsIt() throws Exception {
        AtomicInteger started = new AtomicInteger();
        Errand[] nodes = new Errand[2];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = node(builder()
                    .nodeId("node-" + i)
                    .queue("partner", 4)
                    .queueRateLimit("partner", 1, Duration.ofHours(1))
                    .register(tenantCall("a", started).build()));
        }
        for (int i = 0; i < 4; i++) {
            nodes[0].enqueue(TaskRequest.builder("a", "p" + i).queue("partner").build());
        }
        nodes[0].start();
        nodes[1].start();
        await().atMost(Duration.ofSeconds(10)).until(() -> started.get() == 1);
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(nodes[1].flow().queueLimits())
                        .containsExactly(new QueueLimit(
                                "partner",
                                new FlowLimit.Value(null, null),
                                new FlowLimit.Rate(new RateLimit(1, Duration.ofHours(1)), null),
                                0,
                                1,
                                3)));
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> started.get() == 1);

        nodes[0].flow().changeQueueRateLimit("partner", new RateLimit(10, Duration.ofSeconds(1)));
        assertThat(nodes[1].flow().queueLimits().get(0).rate())
                .isEqualTo(new FlowLimit.Rate(
                        new RateLimit(1, Duration.ofHours(1)), new RateLimit(10, Duration.ofSeconds(1))));
        await().atMost(Duration.ofSeconds(30)).until(() -> started.get() == 4);
        assertThat(audited("change-queue-limit", "rate=10 per %"))
                .as("the change is audited")
                .isEqualTo(1);

        assertThatThrownBy(() -> nodes[0].flow().changeQueueRateLimit("partner", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be null");
        assertThatThrownBy(() ->
                        nodes[0].flow().changeQueueRateLimit("no-such-queue", new RateLimit(1, Duration.ofSeconds(1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not served by this node");
        nodes[1].flow().resetQueueLimit("partner");
        assertThat(nodes[0].flow().queueLimits().get(0).rate())
                .isEqualTo(new FlowLimit.Rate(new RateLimit(1, Duration.ofHours(1)), null));

        assertThatThrownBy(() -> builder().queue("partner", 2).queueRateLimit("partner", 0, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 and 10000");
        assertThatThrownBy(() -> builder().queue("partner", 2).queueRateLimit("partner", 3, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("period of a rate limit must be between 1 ms and 24 h");
        assertThatThrownBy(() -> builder()
                        .queue("partner", 2)
                        .queueRateLimit("other", 3, Duration.ofSeconds(1))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Queue 'other' has a rate limit but is not declared on this node");
    }
}
