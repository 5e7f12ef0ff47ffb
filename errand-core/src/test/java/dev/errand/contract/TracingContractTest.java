package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.batch.BatchEvent;
import dev.errand.batch.BatchRequest;
import dev.errand.enqueue.TaskRequest;
import dev.errand.spi.ClaimedTask;
import dev.errand.spi.TaskTracing;
import dev.errand.spi.TraceContext;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskKind;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The trace context travels from the enqueuing thread, through the task's row, to the attempt on a worker: for a
 * task, a continuation, a workflow step and a batch callback; tracing that fails never fails an enqueue or an
 * attempt; and without tracing nothing is stored.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class TracingContractTest extends ErrandTestSupport {

    private static final Duration WAIT = Duration.ofSeconds(15);

    TracingContractTest(Target target) {
        super(target);
    }

    /**
     * A tracer of its own, as a tracing library would be: the current context lives on the thread, the attempt's
     * span is a child of the stored context and current while the attempt runs.
     */
    static final class ThreadTracing implements TaskTracing {
        final ThreadLocal<TraceContext> current = new ThreadLocal<>();
        final Map<Long, Attempt> attempts = new ConcurrentHashMap<>();
        final AtomicInteger closed = new AtomicInteger();

        record Attempt(TraceContext parent, TraceContext own) {}

        @Override
        public TraceContext capture(String kind, String queue) {
            TraceContext context = current.get();
            return context == null ? TraceContext.NONE : context;
        }

        @Override
        public AttemptSpan attemptStarted(ClaimedTask task) {
            TraceContext own = task.trace().isPresent() ? child(task.trace()) : root();
            current.set(own);
            attempts.put(task.id(), new Attempt(task.trace(), own));
            return () -> {
                current.remove();
                closed.incrementAndGet();
            };
        }

        static TraceContext root() {
            return new TraceContext("00-" + hex(16) + "-" + hex(8) + "-01", "errand=test");
        }

        static TraceContext child(TraceContext parent) {
            return new TraceContext("00-" + parent.traceId() + "-" + hex(8) + "-01", parent.tracestate());
        }

        private static String hex(int bytes) {
            byte[] random = new byte[bytes];
            ThreadLocalRandom.current().nextBytes(random);
            return HexFormat.of().formatHex(random);
        }
    }

    private List<String> storedTrace(long id) throws SQLException {
        try (Connection c = dataSource().getConnection();
                PreparedStatement s =
                        c.prepareStatement("SELECT trace_parent, trace_state FROM " + prefix + "task WHERE id = ?")) {
            s.setLong(1, id);
            try (ResultSet row = s.executeQuery()) {
                assertThat(row.next()).as("task %d has a row", id).isTrue();
                List<String> values = new ArrayList<>();
                values.add(row.getString(1));
                values.add(row.getString(2));
                return values;
            }
        }
    }

    @Test
    void anAttemptRunsAsAChildOfTheTraceThatEnqueuedItAndItsContinuationAsAChildOfTheAttempt() throws Exception {
        ThreadTracing tracing = new ThreadTracing();
        List<Long> continuations = Collections.synchronizedList(new ArrayList<>());
        Errand errand = node(builder()
                .tracing(tracing)
                .register(TaskDefinition.builder(
                                "first",
                                Integer.class,
                                (n, ctx) -> ctx.continueWith(TaskKind.of("second", Integer.class), n + 1))
                        .build())
                .register(TaskDefinition.builder("second", Integer.class, (n, ctx) -> continuations.add(ctx.taskId()))
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
        TraceContext request = ThreadTracing.root();
        tracing.current.set(request);
        long id;
        try {
            id = errand.enqueue(TaskRequest.of("first", 1)).id();
        } finally {
            tracing.current.remove();
        }
        assertThat(storedTrace(id)).containsExactly(request.traceparent(), "errand=test");

        errand.start();
        await().atMost(WAIT).until(() -> continuations.size() == 1 && tracing.closed.get() == 2);

        ThreadTracing.Attempt first = tracing.attempts.get(id);
        assertThat(first.parent()).isEqualTo(request);
        ThreadTracing.Attempt second = tracing.attempts.get(continuations.get(0));
        assertThat(second.parent())
                .as("the continuation was enqueued inside the first attempt's span")
                .isEqualTo(first.own());
        assertThat(second.own().traceId()).isEqualTo(request.traceId());
    }

    @Test
    void aBatchCallbackJoinsTheTraceThatCreatedTheBatch() throws Exception {
        ThreadTracing tracing = new ThreadTracing();
        List<Long> callbacks = Collections.synchronizedList(new ArrayList<>());
        Errand errand = node(builder()
                .tracing(tracing)
                .register(TaskDefinition.builder("member", String.class, (name, ctx) -> {})
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build())
                .register(TaskDefinition.builder("done", String.class, (name, ctx) -> callbacks.add(ctx.taskId()))
                        .build()));
        TraceContext request = ThreadTracing.root();
        tracing.current.set(request);
        try {
            errand.enqueueBatch(BatchRequest.builder()
                    .add(TaskRequest.of("member", "a"))
                    .add(TaskRequest.of("member", "b"))
                    .on(BatchEvent.COMPLETE, batchId -> TaskRequest.of("done", "complete"))
                    .build());
        } finally {
            tracing.current.remove();
        }
        errand.start();
        await().atMost(WAIT).until(() -> callbacks.size() == 1);

        assertThat(tracing.attempts.get(callbacks.get(0)).parent()).isEqualTo(request);
    }

    /** Records each claim and completion span: what it was opened with, what it was told, how often it closed. */
    static final class BatchTracing implements TaskTracing {
        final List<Recorded> claims = Collections.synchronizedList(new ArrayList<>());
        final List<Recorded> completions = Collections.synchronizedList(new ArrayList<>());

        static final class Recorded implements BatchSpan {
            final String opened;
            final List<Integer> counts = Collections.synchronizedList(new ArrayList<>());
            final List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            final AtomicInteger closed = new AtomicInteger();

            Recorded(String opened) {
                this.opened = opened;
            }

            @Override
            public void tasks(int count) {
                counts.add(count);
            }

            @Override
            public void failed(Throwable error) {
                failures.add(error);
            }

            @Override
            public void close() {
                closed.incrementAndGet();
            }
        }

        @Override
        public TraceContext capture(String kind, String queue) {
            return TraceContext.NONE;
        }

        @Override
        public AttemptSpan attemptStarted(ClaimedTask task) {
            return AttemptSpan.NONE;
        }

        @Override
        public BatchSpan claimStarted(String queue) {
            Recorded span = new Recorded(queue);
            claims.add(span);
            return span;
        }

        @Override
        public BatchSpan completionStarted(int tasks) {
            Recorded span = new Recorded(Integer.toString(tasks));
            completions.add(span);
            return span;
        }

        static int sum(List<Recorded> spans) {
            synchronized (spans) {
                return spans.stream()
                        .mapToInt(s ->
                                s.counts.stream().mapToInt(Integer::intValue).sum())
                        .sum();
            }
        }
    }

    @Test
    void everyClaimAndEveryCompletionBatchIsASpanThatCountsItsTasksAndClosesOnce() throws Exception {
        BatchTracing tracing = new BatchTracing();
        AtomicInteger ran = new AtomicInteger();
        Errand errand = node(builder()
                .tracing(tracing)
                .register(TaskDefinition.builder("quick", Integer.class, (n, ctx) -> ran.incrementAndGet())
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
        List<TaskRequest> requests = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            requests.add(TaskRequest.of("quick", i));
        }
        errand.enqueueAll(requests);
        errand.start();
        await().atMost(WAIT).until(() -> ran.get() == 40 && taskRows() == 0);
        await().atMost(WAIT).until(() -> BatchTracing.sum(tracing.completions) == 40);
        errand.stop();

        assertThat(BatchTracing.sum(tracing.claims))
                .as("tasks claimed across the claim spans")
                .isEqualTo(40);
        synchronized (tracing.claims) {
            assertThat(tracing.claims).allSatisfy(span -> {
                assertThat(span.opened).isEqualTo("default");
                assertThat(span.counts).hasSize(1);
                assertThat(span.failures).isEmpty();
                assertThat(span.closed).hasValue(1);
            });
        }
        synchronized (tracing.completions) {
            assertThat(tracing.completions).allSatisfy(span -> {
                assertThat(span.counts)
                        .as("a completion counts what it was opened with")
                        .containsExactly(Integer.parseInt(span.opened));
                assertThat(span.closed).hasValue(1);
            });
        }
    }

    @Test
    void withoutTracingNothingIsStored() throws Exception {
        AtomicInteger ran = new AtomicInteger();
        Errand errand = node(builder()
                .register(TaskDefinition.builder("plain", Integer.class, (n, ctx) -> ran.incrementAndGet())
                        .build()));
        long id = errand.enqueue(TaskRequest.of("plain", 1)).id();
        assertThat(storedTrace(id)).containsExactly(null, null);
        errand.start();
        await().atMost(WAIT).until(() -> ran.get() == 1 && taskRows() == 0);
    }

    @Test
    void tracingThatThrowsCostsTheTaskItsTraceButNeverItsEnqueueOrItsRun() throws Exception {
        AtomicInteger ran = new AtomicInteger();
        TaskTracing broken = new TaskTracing() {
            @Override
            public TraceContext capture(String kind, String queue) {
                throw new IllegalStateException("tracer is down");
            }

            @Override
            public AttemptSpan attemptStarted(ClaimedTask task) {
                throw new IllegalStateException("tracer is down");
            }

            @Override
            public BatchSpan claimStarted(String queue) {
                throw new IllegalStateException("tracer is down");
            }

            @Override
            public BatchSpan completionStarted(int tasks) {
                return new BatchSpan() {
                    @Override
                    public void tasks(int count) {
                        throw new IllegalStateException("tracer is down");
                    }

                    @Override
                    public void failed(Throwable error) {
                        throw new IllegalStateException("tracer is down");
                    }

                    @Override
                    public void close() {
                        throw new IllegalStateException("tracer is down");
                    }
                };
            }
        };
        Errand errand = node(builder()
                .tracing(broken)
                .register(TaskDefinition.builder("plain", Integer.class, (n, ctx) -> ran.incrementAndGet())
                        .build())
                .register(TaskDefinition.builder("quick", Integer.class, (n, ctx) -> ran.incrementAndGet())
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
        long id = errand.enqueue(TaskRequest.of("plain", 1)).id();
        errand.enqueue(TaskRequest.of("quick", 2));
        assertThat(storedTrace(id)).containsExactly(null, null);
        errand.start();
        await().atMost(WAIT).until(() -> ran.get() == 2 && taskRows() == 0);
    }

    @Test
    void badTracingArgumentsAreRefusedWithWhatToDo() {
        assertThatThrownBy(() -> builder().tracing(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TaskTracing.NONE");
        assertThatThrownBy(() -> new TraceContext("<script>", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("W3C traceparent");
        assertThatThrownBy(() -> new TraceContext(ThreadTracing.root().traceparent(), "x".repeat(513)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most 512");
        assertThat(TraceContext.of("00-not-a-trace", "a=b")).isEqualTo(TraceContext.NONE);
        TraceContext kept = TraceContext.of(ThreadTracing.root().traceparent(), "x".repeat(513));
        assertThat(kept.isPresent()).isTrue();
        assertThat(kept.tracestate()).isNull();
    }
}
