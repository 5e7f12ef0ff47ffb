package dev.errand.contract;

import static dev.errand.testing.Boundaries.durations;
import static dev.errand.testing.Boundaries.instants;
import static dev.errand.testing.Boundaries.longs;
import static dev.errand.testing.Boundaries.name;
import static dev.errand.testing.Boundaries.positive;
import static dev.errand.testing.Boundaries.positiveSpan;
import static dev.errand.testing.Boundaries.span;
import static dev.errand.testing.Boundaries.storable;
import static dev.errand.testing.Boundaries.strings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.batch.BatchRequest;
import dev.errand.batch.EnqueuedBatch;
import dev.errand.config.Settings;
import dev.errand.config.TimeLimits;
import dev.errand.enqueue.Enqueued;
import dev.errand.enqueue.TaskRequest;
import dev.errand.retry.RetryPolicy;
import dev.errand.task.ContinueOptions;
import dev.errand.task.ExecutionMode;
import dev.errand.task.ProcessingLog;
import dev.errand.task.RetryLater;
import dev.errand.task.Snooze;
import dev.errand.task.Task;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskKind;
import dev.errand.task.TaskState;
import dev.errand.testing.Boundaries;
import dev.errand.testing.Boundaries.Expect;
import dev.errand.testing.Boundaries.Row;
import dev.errand.testing.Boundaries.Rule;
import dev.errand.testing.Boundaries.Value;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.workflow.EnqueuedWorkflow;
import dev.errand.workflow.Workflow;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every public method of the enqueue, task, workflow, batch and retry packages that takes a duration, an
 * instant, a string or a collection, tried with the boundary values of its type ({@link Boundaries}) on a
 * real database, the accepted ones enqueued and read back: each call returns with the documented effect or
 * is refused with a short message that says what is accepted. One table per package.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class EnqueueBoundaryContractTest extends ErrandTestSupport {

    private static final Rule<String> GROUP = value -> {
        Expect named = name(200).expect(value);
        return named.accepted() && value.contains(",") ? Expect.refused("comma") : named;
    };

    /** The reasons the hostile handler gives, by the index its payload holds. */
    private final List<String> reasons = new java.util.concurrent.CopyOnWriteArrayList<>();

    EnqueueBoundaryContractTest(Target target) {
        super(target);
    }

    private Errand idleNode() {
        return node(builder()
                .register(TaskDefinition.builder("k", Integer.class, (n, ctx) -> {})
                        .build()));
    }

    private Task enqueued(Errand errand, Object result) {
        return task(errand, ((Enqueued) result).id());
    }

    private String column(String column, long id) throws Exception {
        try (Connection c = dataSource().getConnection();
                var s = c.prepareStatement("SELECT " + column + " FROM " + prefix + "task WHERE id = ?")) {
            s.setLong(1, id);
            try (var row = s.executeQuery()) {
                row.next();
                return row.getString(1);
            }
        }
    }

    /** Lists: null, empty, holding null, one, and 10,000 elements. */
    private static <T> List<Value<List<T>>> lists(T element) {
        return List.of(
                new Value<>("null", null),
                new Value<>("[]", List.of()),
                new Value<>("[null]", Collections.singletonList(null)),
                new Value<>("[one]", List.of(element)),
                new Value<>("10,000 elements", Collections.nCopies(10_000, element)));
    }

    @Test
    void enqueue() throws Exception {
        Errand errand = idleNode();
        Rule<String> configuredQueue = queue -> {
            Expect named = name(100).expect(queue);
            return named.accepted() ? Expect.refused("is not configured") : named;
        };
        Boundaries.run(List.of(
                Row.of(
                                "TaskRequest.of + enqueue",
                                strings(200),
                                name(200),
                                kind -> errand.enqueue(TaskRequest.of(kind, 1)))
                        .then((kind, result) ->
                                assertThat(enqueued(errand, result).kind()).isEqualTo(kind)),
                Row.of(
                                "TaskRequest.delay + enqueue",
                                durations(),
                                span(),
                                delay -> errand.enqueue(
                                        TaskRequest.builder("k", 1).delay(delay).build()))
                        .then((delay, result) -> assertThat(
                                        enqueued(errand, result).runAt())
                                .isAfterOrEqualTo(databaseNow().plus(delay).minusSeconds(60))),
                Row.of(
                                "TaskRequest.runAt + enqueue",
                                instants(),
                                storable(false),
                                at -> errand.enqueue(
                                        TaskRequest.builder("k", 1).runAt(at).build()))
                        .then((at, result) -> assertThat(
                                        enqueued(errand, result).runAt())
                                .isBetween(at.minus(1, ChronoUnit.MICROS), at.plus(1, ChronoUnit.MICROS))),
                Row.of(
                        "TaskRequest.queue + enqueue",
                        strings(100),
                        configuredQueue,
                        queue -> errand.enqueue(
                                TaskRequest.builder("k", 1).queue(queue).build())),
                Row.of(
                                "TaskRequest.node + enqueue",
                                strings(200),
                                name(200),
                                node -> errand.enqueue(
                                        TaskRequest.builder("k", 1).node(node).build()))
                        .then((node, result) -> assertThat(column("node_id", ((Enqueued) result).id()))
                                .isEqualTo(node)),
                Row.of(
                                "TaskRequest.nodeGroup + enqueue",
                                strings(200),
                                GROUP,
                                group -> errand.enqueue(TaskRequest.builder("k", 1)
                                        .nodeGroup(group)
                                        .build()))
                        .then((group, result) -> assertThat(column("node_group", ((Enqueued) result).id()))
                                .isEqualTo(group)),
                Row.of(
                                "TaskRequest.uniqueKey + enqueue twice",
                                strings(200),
                                name(200),
                                key -> List.of(
                                        errand.enqueue(TaskRequest.builder("k", 1)
                                                .uniqueKey(key)
                                                .build()),
                                        errand.enqueue(TaskRequest.builder("k", 2)
                                                .uniqueKey(key)
                                                .build())))
                        .then((key, both) -> {
                            List<?> pair = (List<?>) both;
                            assertThat(((Enqueued) pair.get(1)).deduplicated()).isTrue();
                            assertThat(enqueued(errand, pair.get(0)).uniqueKey())
                                    .isEqualTo(key);
                        }),
                Row.of(
                                "TaskRequest.condition + enqueue",
                                strings(255),
                                name(255),
                                event -> errand.enqueue(TaskRequest.builder("k", 1)
                                        .condition(event)
                                        .build()))
                        .then((event, result) ->
                                assertThat(enqueued(errand, result).state()).isEqualTo(TaskState.WAITING)),
                Row.of(
                        "TaskRequest.expiresAt + enqueue",
                        instants(),
                        Boundaries.deadline(),
                        deadline -> errand.enqueue(
                                TaskRequest.builder("k", 1).expiresAt(deadline).build())),
                Row.of(
                        "TaskRequest.expiresIn + enqueue",
                        durations(),
                        positiveSpan(),
                        timeout -> errand.enqueue(
                                TaskRequest.builder("k", 1).expiresIn(timeout).build())),
                Row.of("enqueueAll", lists(TaskRequest.of("k", 7)), Boundaries.noNulls(true), errand::enqueueAll)
                        .then((requests, result) -> assertThat((List<?>) result).hasSameSizeAs(requests)),
                Row.of(
                        "wakeUp",
                        strings(100),
                        queue -> queue == null ? Expect.refused("queue") : Expect.RETURNS,
                        queue -> {
                            errand.wakeUp(queue);
                            return queue;
                        })));
    }

    @Test
    void task() throws Exception {
        Rule<String> stateName = value -> Arrays.stream(TaskState.values())
                        .anyMatch(state -> state.dbValue().equals(value))
                ? Expect.RETURNS
                : Expect.refused("Unknown task state");
        Boundaries.run(List.of(
                Row.of("TaskKind.of", strings(200), name(200), kind -> TaskKind.of(kind, Integer.class)),
                Row.of("TaskKind.withoutPayload", strings(200), name(200), TaskKind::withoutPayload),
                Row.of(
                        "TaskDefinition.leaseDuration",
                        durations(),
                        Boundaries.setting(Settings.LEASE_DURATION),
                        lease -> TaskDefinition.builder("k", Integer.class, (n, c) -> {})
                                .leaseDuration(lease)),
                Row.of(
                        "TaskDefinition.executionTimeout",
                        durations(),
                        Boundaries.setting(Settings.EXECUTION_TIMEOUT),
                        t -> TaskDefinition.builder("k", Integer.class, (n, c) -> {})
                                .executionTimeout(t)),
                Row.of(
                        "TaskDefinition.retention(FAILED)",
                        durations(),
                        Boundaries.setting(Settings.FAILED_RETENTION),
                        keep -> TaskDefinition.builder("k", Integer.class, (n, c) -> {})
                                .retention(TaskState.FAILED, keep)),
                Row.of("RetryLater.after", durations(), span(), RetryLater::after),
                Row.of(
                        "RetryLater.after(0, reason)",
                        strings(200),
                        reason -> reason == null ? Expect.refused("reason") : Expect.RETURNS,
                        reason -> RetryLater.after(Duration.ZERO, reason)),
                Row.of("Snooze.by", durations(), span(), Snooze::by),
                Row.of("ContinueOptions.delay", durations(), span(), d -> ContinueOptions.builder()
                        .delay(d)),
                Row.of("ContinueOptions.runAt", instants(), storable(false), at -> ContinueOptions.builder()
                        .runAt(at)),
                Row.of("ContinueOptions.queue", strings(100), name(100), q -> ContinueOptions.builder()
                        .queue(q)),
                Row.of("ContinueOptions.node", strings(200), name(200), id -> ContinueOptions.builder()
                        .node(id)),
                Row.of("ContinueOptions.nodeGroup", strings(200), GROUP, g -> ContinueOptions.builder()
                        .nodeGroup(g)),
                Row.of("ContinueOptions.uniqueKey", strings(200), name(200), k -> ContinueOptions.builder()
                        .uniqueKey(k)),
                Row.of("ContinueOptions.expiresIn", durations(), positiveSpan(), t -> ContinueOptions.builder()
                        .expiresIn(t)),
                Row.of("ProcessingLog.append", strings(200), line -> Expect.RETURNS, line -> {
                            ProcessingLog log = new ProcessingLog();
                            log.append(line);
                            return log.text();
                        })
                        .then((line, text) ->
                                assertThat(String.valueOf(text).length()).isLessThan(20_000)),
                Row.of("TaskState.fromDbValue", strings(20), stateName, TaskState::fromDbValue)));

        // What a handler hands back is stored: reasons and log lines of any size and content, on the row.
        Errand errand = node(builder()
                .historyEnabled(true)
                .register(TaskDefinition.builder("hostile-reason", Integer.class, (index, ctx) -> {
                            String text = reasons.get(index);
                            ctx.log(text);
                            throw RetryLater.after(Duration.ZERO, text);
                        })
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .maxAttempts(1)
                        .build()));
        List<Long> ids = new ArrayList<>();
        for (Value<String> reason : strings(200)) {
            if (reason.value() != null) {
                reasons.add(reason.value());
                ids.add(errand.enqueue(TaskRequest.of("hostile-reason", reasons.size() - 1))
                        .id());
            }
        }
        errand.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> tasksIn(TaskState.FAILED) == ids.size());
        for (long id : ids) {
            Task failed = task(errand, id);
            assertThat(failed.lastError()).doesNotContain("\u0000").hasSizeLessThan(10_000);
            assertThat(errand.history().attempts(id)).hasSize(1);
        }
        assertThat(errand.health().healthy()).isTrue();
    }

    @Test
    void workflow() throws Exception {
        Errand errand = idleNode();
        Rule<String> stepName = value -> value == null
                        || value.isBlank()
                        || value.length() > Workflow.MAX_STEP_NAME_LENGTH
                        || value.contains("\u0000")
                ? Expect.refused("step name")
                : Expect.RETURNS;
        TaskRequest request = TaskRequest.of("k", 1);
        Boundaries.run(List.of(
                Row.of(
                                "Workflow.step + enqueueWorkflow",
                                strings(200),
                                stepName,
                                step -> errand.enqueueWorkflow(Workflow.builder()
                                        .step(step, request)
                                        .step("next", request, step)
                                        .build()))
                        .then((step, result) -> {
                            EnqueuedWorkflow workflow = (EnqueuedWorkflow) result;
                            assertThat(task(errand, workflow.taskId(step)).state())
                                    .isEqualTo(TaskState.PENDING);
                            assertThat(task(errand, workflow.taskId("next")).state())
                                    .isEqualTo(TaskState.WAITING);
                        }),
                Row.of(
                        "Workflow.step(after unknown)",
                        strings(200),
                        step -> Expect.refused("not a step added before"),
                        step -> Workflow.builder().step("first", request).step("second", request, step)),
                Row.of(
                        "EnqueuedWorkflow.taskId(unknown)",
                        strings(200),
                        step -> Expect.refused("No step"),
                        step -> errand.enqueueWorkflow(
                                        Workflow.builder().step("only", request).build())
                                .taskId(step))));
    }

    @Test
    void batch() throws Exception {
        Errand errand = idleNode();
        long known = errand.enqueueBatch(
                        BatchRequest.builder().add(TaskRequest.of("k", 1)).build())
                .id();
        Boundaries.run(List.of(
                Row.of("batches().progress", longs(), positive(), id -> errand.batches()
                        .progress(id)),
                Row.of("batches().firedCallbacks", longs(), positive(), id -> errand.batches()
                        .firedCallbacks(id)),
                Row.of(
                        "batches().cancel",
                        longs(),
                        id -> id < 1
                                ? Expect.refused("positive")
                                : id == known ? Expect.RETURNS : Expect.refused("There is no batch"),
                        id -> errand.batches().cancel(id)),
                Row.of(
                                "BatchRequest.addAll + enqueueBatch",
                                lists(TaskRequest.of("k", 2)),
                                Boundaries.noNulls(false),
                                tasks -> errand.enqueueBatch(
                                        BatchRequest.builder().addAll(tasks).build()))
                        .then((tasks, batch) ->
                                assertThat(((EnqueuedBatch) batch).taskIds()).hasSameSizeAs(tasks))));
    }

    @Test
    void retry() throws Exception {
        List<Value<Duration[]>> lists = List.of(
                new Value<>("null", null),
                new Value<>("[]", new Duration[0]),
                new Value<>("[null]", new Duration[] {null}),
                new Value<>("[36500d]", new Duration[] {TimeLimits.MAX_DURATION}),
                new Value<>("[FOREVER]", new Duration[] {Boundaries.FOREVER}),
                new Value<>(
                        "10,000 delays",
                        Collections.nCopies(10_000, Duration.ofSeconds(1)).toArray(Duration[]::new)));
        Rule<Duration[]> delayList = delays -> {
            if (delays == null || delays.length == 0) {
                return Expect.refused(null);
            }
            for (Duration delay : delays) {
                Expect one = span().expect(delay);
                if (!one.accepted()) {
                    return one;
                }
            }
            return Expect.RETURNS;
        };
        Boundaries.run(List.of(
                Row.of("RetryPolicy.fixed", durations(), span(), RetryPolicy::fixed),
                Row.of(
                        "RetryPolicy.exponential(initial, 36500d)",
                        durations(),
                        positiveSpan(),
                        initial -> RetryPolicy.exponential(initial, TimeLimits.MAX_DURATION)),
                Row.of(
                        "RetryPolicy.exponential(1ns, cap)",
                        durations(),
                        positiveSpan(),
                        cap -> RetryPolicy.exponential(Duration.ofNanos(1), cap)),
                Row.of("RetryPolicy.delays + register", lists, delayList, delays -> TaskDefinition.builder(
                                "k", Integer.class, (n, c) -> {})
                        .retryPolicy(RetryPolicy.delays(delays))
                        .build())));

        // The longest delays a policy gives are added to the database's clock without overflow.
        Errand retrying = node(builder()
                .register(TaskDefinition.builder("slow-retry", Integer.class, (n, ctx) -> {
                            throw new IllegalStateException("again");
                        })
                        .retryPolicy(RetryPolicy.exponential(Duration.ofDays(1), TimeLimits.MAX_DURATION)
                                .withJitter(0))
                        .maxAttempts(3)
                        .build())
                .register(TaskDefinition.builder("late-retry", Integer.class, (n, ctx) -> {
                            throw RetryLater.after(TimeLimits.MAX_DURATION);
                        })
                        .build()));
        long slow = retrying.enqueue(TaskRequest.of("slow-retry", 1)).id();
        long late = retrying.enqueue(TaskRequest.of("late-retry", 1)).id();
        retrying.start();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> task(retrying, slow).attempt() == 1
                        && task(retrying, slow).state() == TaskState.PENDING);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> task(retrying, late).attempt() == 1
                        && task(retrying, late).state() == TaskState.PENDING);
        Instant now = databaseNow();
        assertThat(task(retrying, slow).runAt())
                .isBetween(now.plus(Duration.ofHours(23)), now.plus(Duration.ofDays(2)));
        assertThat(task(retrying, late).runAt())
                .isAfter(now.plus(TimeLimits.MAX_DURATION).minus(Duration.ofDays(1)));
    }
}
