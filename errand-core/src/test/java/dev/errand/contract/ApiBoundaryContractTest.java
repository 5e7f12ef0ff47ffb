package dev.errand.contract;

import static dev.errand.testing.Boundaries.durations;
import static dev.errand.testing.Boundaries.instants;
import static dev.errand.testing.Boundaries.ints;
import static dev.errand.testing.Boundaries.longs;
import static dev.errand.testing.Boundaries.name;
import static dev.errand.testing.Boundaries.positive;
import static dev.errand.testing.Boundaries.span;
import static dev.errand.testing.Boundaries.storable;
import static dev.errand.testing.Boundaries.strings;
import static dev.errand.testing.Boundaries.within;
import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.admin.TaskQuery;
import dev.errand.config.Names;
import dev.errand.config.Setting;
import dev.errand.config.Settings;
import dev.errand.enqueue.TaskRequest;
import dev.errand.event.Condition;
import dev.errand.history.AttemptQuery;
import dev.errand.node.NodeTarget;
import dev.errand.node.PinPolicy;
import dev.errand.node.QueueChange;
import dev.errand.node.QueueControl;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testing.Boundaries;
import dev.errand.testing.Boundaries.Expect;
import dev.errand.testing.Boundaries.Row;
import dev.errand.testing.Boundaries.Rule;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every public method of the admin, history, event, node and config packages that takes a duration, an instant,
 * a string or a number, tried with the boundary values of its type ({@link Boundaries}) on a real database:
 * each call returns with the documented effect or is refused with a short message that says what is
 * accepted. One table per package.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class ApiBoundaryContractTest extends ErrandTestSupport {

    ApiBoundaryContractTest(Target target) {
        super(target);
    }

    private Errand idleNode() {
        return node(builder()
                .historyEnabled(true)
                .register(TaskDefinition.builder("k", Integer.class, (n, ctx) -> {})
                        .build()));
    }

    /** A string column of a row, read with plain SQL. */
    private String text(String sql, Object key) throws Exception {
        try (Connection c = dataSource().getConnection();
                var s = c.prepareStatement(sql)) {
            s.setObject(1, key);
            try (var row = s.executeQuery()) {
                return row.next() ? row.getString(1) : null;
            }
        }
    }

    @Test
    void admin() throws Exception {
        Errand errand = idleNode();
        errand.enqueue(TaskRequest.of("k", 0)); // cancelled, retried and deleted by the id rows
        long pending = errand.enqueue(TaskRequest.of("k", 1)).id();
        Rule<String> kindFilter = name(200);
        Boundaries.run(List.of(
                Row.of("admin().find", longs(), positive(), id -> errand.admin().find(id)),
                Row.of("admin().chain", longs(), positive(), id -> errand.admin()
                        .chain(id)),
                Row.of("admin().reschedule(pending, runAt)", instants(), storable(false), at -> errand.admin()
                                .reschedule(pending, at))
                        .then((at, moved) -> {
                            assertThat(moved).isEqualTo(true);
                            assertThat(task(errand, pending).runAt())
                                    .isBetween(at.minus(1, ChronoUnit.MICROS), at.plus(1, ChronoUnit.MICROS));
                        }),
                Row.of("admin().reschedule(id, now)", longs(), positive(), id -> errand.admin()
                        .reschedule(id, Instant.now())),
                Row.of("admin().cancel", longs(), positive(), id -> errand.admin()
                        .cancel(id)),
                Row.of("admin().requestCancel", longs(), positive(), id -> errand.admin()
                        .requestCancel(id)),
                Row.of("admin().retryNow", longs(), positive(), id -> errand.admin()
                        .retryNow(id)),
                Row.of("admin().pruneSucceeded", durations(), span(), age -> errand.admin()
                        .pruneSucceeded(age)),
                Row.of("admin().pruneFinished(FAILED)", durations(), span(), age -> errand.admin()
                        .pruneFinished(TaskState.FAILED, age)),
                Row.of("admin().pruneFinished(CANCELLED)", durations(), span(), age -> errand.admin()
                        .pruneFinished(TaskState.CANCELLED, age)),
                Row.of("admin().counts", durations(), span(), age -> errand.admin()
                                .counts(age))
                        .then((age, counts) -> assertThat(
                                        errand.admin().counts(age).byState())
                                .hasEntrySatisfying(
                                        TaskState.PENDING, n -> assertThat(n).isPositive())),
                Row.of("admin().load", durations(), span(), age -> errand.admin()
                        .load(age)),
                Row.of("TaskQuery.kind + list", strings(200), kindFilter, kind -> errand.admin()
                                .list(TaskQuery.builder().kind(kind).build()))
                        .then((kind, page) -> assertThat(errand.admin()
                                        .count(TaskQuery.builder().kind(kind).build()))
                                .isZero()),
                Row.of("TaskQuery.queue + count", strings(100), name(100), queue -> errand.admin()
                        .count(TaskQuery.builder().queue(queue).build())),
                Row.of(
                        "TaskQuery.offset + list",
                        ints(0, Integer.MAX_VALUE),
                        within(0, Integer.MAX_VALUE),
                        n -> errand.admin().list(TaskQuery.builder().offset(n).build())),
                Row.of(
                        "TaskQuery.limit + list",
                        ints(1, TaskQuery.MAX_LIMIT),
                        within(1, TaskQuery.MAX_LIMIT),
                        n -> errand.admin().list(TaskQuery.builder().limit(n).build())),
                Row.of("admin().delete", longs(), positive(), id -> errand.admin()
                        .delete(id))));
        assertThat(errand.admin().find(pending))
                .as("the pending task outlived every call")
                .isPresent();
    }

    @Test
    void history() throws Exception {
        Errand errand = idleNode();
        Rule<String> errorText = text -> {
            if (text == null || text.isBlank()) {
                return Expect.refused("non-blank");
            }
            if (text.length() > 200) {
                return Expect.refused("200");
            }
            return text.indexOf('\u0000') >= 0 ? Expect.refused("NUL") : Expect.RETURNS;
        };
        Boundaries.run(List.of(
                Row.of("history().attempts", longs(), positive(), id -> errand.history()
                        .attempts(id)),
                Row.of("AttemptQuery.kind + search", strings(200), name(200), kind -> errand.history()
                        .search(AttemptQuery.builder().kind(kind).build())),
                Row.of("AttemptQuery.errorContains + search", strings(200), errorText, text -> errand.history()
                        .search(AttemptQuery.builder().errorContains(text).build())),
                Row.of(
                        "AttemptQuery.finishedBetween(from, null) + search",
                        instants(),
                        storable(true),
                        from -> errand.history()
                                .search(AttemptQuery.builder()
                                        .finishedBetween(from, null)
                                        .build())),
                Row.of(
                        "AttemptQuery.finishedBetween(null, before) + search",
                        instants(),
                        storable(true),
                        to -> errand.history()
                                .search(AttemptQuery.builder()
                                        .finishedBetween(null, to)
                                        .build())),
                Row.of(
                        "AttemptQuery.offset + search",
                        ints(0, Integer.MAX_VALUE),
                        within(0, Integer.MAX_VALUE),
                        n -> errand.history()
                                .search(AttemptQuery.builder().offset(n).build())),
                Row.of(
                        "AttemptQuery.limit + search",
                        ints(1, AttemptQuery.MAX_LIMIT),
                        within(1, AttemptQuery.MAX_LIMIT),
                        n -> errand.history()
                                .search(AttemptQuery.builder().limit(n).build())),
                Row.of("history().prune", durations(), span(), age -> errand.history()
                        .prune(age))));
    }

    @Test
    void event() throws Exception {
        Errand errand = idleNode();
        Rule<String> event = name(Condition.MAX_EVENT_LENGTH);
        Boundaries.run(List.of(
                Row.of("events().trigger", strings(Condition.MAX_EVENT_LENGTH), event, name -> errand.events()
                                .trigger(name))
                        .then((name, triggered) -> assertThat(errand.events().premature(10_000))
                                .as("stored as it was given")
                                .anyMatch(stored -> stored.event().equals(name))),
                Row.of("events().trigger(connection, event)", strings(Condition.MAX_EVENT_LENGTH), event, name -> {
                    try (Connection c = dataSource().getConnection()) {
                        return errand.events().trigger(c, name);
                    }
                }),
                Row.of("events().waitingFor", strings(Condition.MAX_EVENT_LENGTH), event, name -> errand.events()
                        .waitingFor(name, 10)),
                Row.of("events().waiting(limit)", ints(1, 10_000), within(1, 10_000), n -> errand.events()
                        .waiting(n)),
                Row.of("events().premature(limit)", ints(1, 10_000), within(1, 10_000), n -> errand.events()
                        .premature(n)),
                Row.of(
                        "Condition.timeout + enqueue",
                        durations(),
                        Boundaries.positiveSpan(),
                        timeout -> errand.enqueue(TaskRequest.builder("k", 3)
                                .condition(Condition.on("timeout").timeout(timeout))
                                .build())),
                Row.of(
                        "Condition.deadline + enqueue",
                        instants(),
                        Boundaries.deadline(),
                        deadline -> errand.enqueue(TaskRequest.builder("k", 4)
                                .condition(Condition.on("deadline").deadline(deadline))
                                .build())),
                Row.of("events().deletePremature", strings(Condition.MAX_EVENT_LENGTH), event, name -> errand.events()
                                .deletePremature(name))
                        .then((name, deleted) -> assertThat(deleted).isEqualTo(true)),
                Row.of(
                                "Condition.on + enqueue",
                                strings(Condition.MAX_EVENT_LENGTH),
                                event,
                                name -> errand.enqueue(TaskRequest.builder("k", 2)
                                        .condition(Condition.on(name))
                                        .build()))
                        .then((name, enqueued) ->
                                assertThat(errand.events().waitingFor(name, 10)).hasSize(1)),
                Row.of("events().deletePrematureOlderThan", durations(), span(), age -> errand.events()
                        .deletePrematureOlderThan(age))));
        assertThat(errand.events().waitingFor("timeout", 100)).isNotEmpty();
    }

    @Test
    void node() throws Exception {
        Errand errand = idleNode();
        Rule<String> group = value -> {
            Expect named = name(200).expect(value);
            return named.accepted() && value.contains(",") ? Expect.refused("comma") : named;
        };
        Rule<Duration> failAfter = Boundaries.positiveSpan();
        Rule<Duration> pollInterval = every -> every == null
                ? Expect.refused("at least one of")
                : Boundaries.setting(Settings.POLL_INTERVAL).expect(every);
        Boundaries.run(List.of(
                Row.of("new NodeTarget(id, null) + repoll", strings(200), Boundaries.nullOr(name(200)), id -> {
                            errand.cluster().repoll(new NodeTarget(id, null));
                            return id;
                        })
                        .then((id, sent) -> {
                            if (id != null) {
                                assertThat(text(
                                                "SELECT target_node FROM " + prefix
                                                        + "node_command WHERE target_node = ?",
                                                id))
                                        .isEqualTo(id);
                            }
                        }),
                Row.of("new NodeTarget(null, group) + stopProcessing", strings(200), Boundaries.nullOr(group), name -> {
                    errand.cluster().stopProcessing(new NodeTarget(null, name));
                    return name;
                }),
                Row.of("NodeTarget.node + startProcessing", strings(200), name(200), id -> {
                    errand.cluster().startProcessing(NodeTarget.node(id));
                    return id;
                }),
                Row.of("NodeTarget.group", strings(200), group, NodeTarget::group),
                Row.of("cluster().pauseQueue", strings(100), name(100), queue -> {
                            errand.cluster().pauseQueue(queue);
                            return queue;
                        })
                        .then((queue, paused) -> assertThat(errand.cluster().queueControls())
                                .filteredOn(control -> control.queue().equals(queue))
                                .singleElement()
                                .extracting(QueueControl::paused)
                                .isEqualTo(true)),
                Row.of("cluster().resumeQueue", strings(100), name(100), queue -> {
                    errand.cluster().resumeQueue(queue);
                    return queue;
                }),
                Row.of("cluster().changeQueue", strings(100), name(100), queue -> {
                    errand.cluster().changeQueue(queue, QueueChange.concurrency(2));
                    return queue;
                }),
                Row.of("cluster().resetQueue", strings(100), name(100), queue -> {
                    errand.cluster().resetQueue(queue);
                    return queue;
                }),
                Row.of("QueueChange.pollInterval + changeQueue", durations(), pollInterval, every -> {
                    errand.cluster().changeQueue("default", QueueChange.pollInterval(every));
                    return every;
                }),
                Row.of("PinPolicy.failAfter + register", durations(), failAfter, timeout -> TaskDefinition.builder(
                                "pinned", Integer.class, (n, ctx) -> {})
                        .pinPolicy(PinPolicy.failAfter(timeout))
                        .build())));
    }

    @Test
    void config() throws Exception {
        List<Row<?>> rows = new ArrayList<>();
        // Every duration setting of the node, through its builder method, against the range of the Settings table.
        for (Setting<?> setting : Settings.nodeSettings()) {
            if (!(setting.defaultValue() instanceof Duration) && !(setting.min() instanceof Duration)) {
                continue;
            }
            @SuppressWarnings("unchecked")
            Setting<Duration> duration = (Setting<Duration>) setting;
            Method setter;
            try {
                setter = ErrandBuilder.class.getMethod(setting.name(), Duration.class);
            } catch (NoSuchMethodException perQueueOrKind) {
                continue;
            }
            Rule<Duration> rule =
                    nullable(setting) ? Boundaries.nullOr(Boundaries.setting(duration)) : Boundaries.setting(duration);
            rows.add(Row.of("ErrandBuilder." + setting.name(), durations(), rule, value -> invoke(setter, value)));
        }
        Rule<String> prefixRule = value -> value != null && value.matches("[A-Za-z_][A-Za-z0-9_]{0,39}")
                ? Expect.RETURNS
                : Expect.refused("plain SQL identifier");
        Rule<String> dialectRule = value -> value != null
                        && Set.of("postgresql", "mariadb", "mysql", "h2")
                                .contains(value.trim().toLowerCase())
                ? Expect.RETURNS
                : Expect.refused("use one of");
        Rule<String> group = value -> {
            Expect named = name(200).expect(value);
            return named.accepted() && value.contains(",") ? Expect.refused("comma") : named;
        };
        rows.add(Row.of("ErrandBuilder.queue", strings(100), name(100), queue -> builder()
                .queue(queue, 1)));
        rows.add(Row.of(
                "ErrandBuilder.queue(concurrency)",
                ints(1, Settings.CONCURRENCY.max()),
                within(1, Settings.CONCURRENCY.max()),
                n -> builder().queue("q", n)));
        rows.add(Row.of(
                "ErrandBuilder.nodeId", strings(200), name(200), id -> builder().nodeId(id)));
        rows.add(Row.of(
                "ErrandBuilder.nodeGroups", strings(200), group, g -> builder().nodeGroups(g)));
        rows.add(Row.of("ErrandBuilder.threadNamePrefix", strings(40), name(40), p -> builder()
                .threadNamePrefix(p)));
        rows.add(Row.of("ErrandBuilder.tablePrefix", strings(40), prefixRule, p -> builder()
                .tablePrefix(p)));
        rows.add(Row.of("ErrandBuilder.dialect", strings(20), dialectRule, d -> builder()
                .dialect(d)));
        rows.add(Row.of("Names.echo", strings(60), value -> Expect.RETURNS, Names::echo)
                .then((value, echo) ->
                        assertThat((String) echo).hasSizeLessThan(120).doesNotContain("\u0000", "\n", "\u001b")));
        java.util.concurrent.atomic.AtomicInteger stoppers = new java.util.concurrent.atomic.AtomicInteger();
        rows.add(Row.of("Errand.start + stop(timeout)", durations(), Boundaries.jvmWait(), timeout -> {
                    Errand started = node(builder().nodeId("stopper-" + stoppers.incrementAndGet()));
                    started.start();
                    try {
                        return started.stop(timeout);
                    } finally {
                        // A refused stop leaves it running, claiming kinds it does not know: stop it here.
                        started.stop(Duration.ofSeconds(5));
                    }
                })
                .then((timeout, finished) -> assertThat(finished).isEqualTo(true)));
        Boundaries.run(rows);
        // And a node built with the extremes of every range starts and stops.
        Errand extreme = node(builder()
                .leaseDuration(Settings.LEASE_DURATION.max())
                .heartbeatInterval(Settings.HEARTBEAT_INTERVAL.max())
                .succeededRetention(Settings.SUCCEEDED_RETENTION.max())
                .failedRetention(Settings.FAILED_RETENTION.max())
                .cancelledRetention(Settings.CANCELLED_RETENTION.max())
                .historyEnabled(true)
                .historyRetention(Settings.HISTORY_RETENTION.max())
                .prematureEventRetention(Settings.PREMATURE_EVENT_RETENTION.max())
                .batchRetention(Settings.BATCH_RETENTION.max())
                .pruneInterval(Settings.PRUNE_INTERVAL.min())
                .register(TaskDefinition.builder("k", Integer.class, (n, ctx) -> {})
                        .build()));
        long id = extreme.enqueue(TaskRequest.of("k", 1)).id();
        extreme.start();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> extreme.admin()
                .find(id)
                .map(t -> t.state() == TaskState.SUCCEEDED)
                .orElse(false));
        Thread.sleep(1_500); // a prune interval: the pruner ran with the longest retentions and kept the task
        assertThat(extreme.admin().find(id)).isPresent();
        assertThat(extreme.health().healthy()).isTrue();
    }

    private static boolean nullable(Setting<?> setting) {
        return setting.defaultValue() == null;
    }

    private Object invoke(Method setter, Duration value) throws Exception {
        try {
            return setter.invoke(builder(), value);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        }
    }
}
