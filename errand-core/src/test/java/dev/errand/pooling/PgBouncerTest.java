package dev.errand.pooling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.enqueue.TaskRequest;
import dev.errand.schedule.Schedule;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testkit.PgBouncer;
import dev.errand.testkit.TestDatabase;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Errand through PgBouncer (Debian's 1.18) of the test's own, in front of the CI PostgreSQL: in transaction mode,
 * the mode most deployments use, everything runs with the driver's {@code prepareThreshold=0}, the node polls
 * instead of listening and says so, or listens on a direct connection given apart; the driver's default
 * prepared statements are refused at start with what to do; session mode works unchanged, notifications included.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("postgres")
class PgBouncerTest extends ErrandTestSupport {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int TASKS = 100;

    private final List<AutoCloseable> closing = new ArrayList<>();
    private final List<Errand> started = new ArrayList<>();

    PgBouncerTest(Target target) {
        super(target);
    }

    static Stream<Target> postgres() {
        return TestDatabase.selected().stream()
                .filter(d -> d == TestDatabase.POSTGRES)
                .map(Target::of);
    }

    @AfterEach
    void closeBouncersAndPools() throws Exception {
        // Before the base class stops them: their pools and PgBouncer close here.
        for (Errand errand : started) {
            errand.stop(Duration.ofSeconds(5));
        }
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    private PgBouncer bouncer(PgBouncer.PoolMode mode) throws Exception {
        PgBouncer bouncer = PgBouncer.start(mode);
        closing.add(bouncer);
        return bouncer;
    }

    /** A pool through {@code url}, as an application would configure HikariCP. */
    private HikariDataSource pool(String url) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername("postgres");
        config.setPassword("");
        config.setMaximumPoolSize(12);
        HikariDataSource pool = new HikariDataSource(config);
        closing.add(pool);
        return pool;
    }

    private static PGSimpleDataSource direct() {
        PGSimpleDataSource direct = new PGSimpleDataSource();
        direct.setUrl(TestDatabase.POSTGRES.url());
        direct.setUser("postgres");
        return direct;
    }

    /** Builds a node that this test stops before it closes the node's pool and PgBouncer. */
    private Errand through(ErrandBuilder builder) {
        Errand errand = node(builder);
        started.add(errand);
        return errand;
    }

    /** A node with a transactional and a non-transactional kind, an event-conditioned kind and a schedule. */
    private ErrandBuilder everything(HikariDataSource pool, AtomicInteger nonTransactional, AtomicInteger ticks) {
        return builder(pool)
                .register(TaskDefinition.builder(
                                "tx",
                                Integer.class,
                                (n, ctx) -> recordEffect(ctx.connection(), ctx.taskId(), "tx " + n))
                        .mode(ExecutionMode.TRANSACTIONAL)
                        .build())
                .register(TaskDefinition.builder("plain", Integer.class, (n, ctx) -> nonTransactional.incrementAndGet())
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build())
                .register(TaskDefinition.builder("tick", Integer.class, (n, ctx) -> ticks.incrementAndGet())
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build())
                .schedule(Schedule.every("every-second", "tick", Duration.ofSeconds(1))
                        .payload(1)
                        .build());
    }

    private static void enqueueWork(Errand errand) {
        List<TaskRequest> requests = new ArrayList<>();
        for (int i = 0; i < TASKS; i++) {
            requests.add(TaskRequest.of("tx", i));
            requests.add(TaskRequest.of("plain", i));
        }
        // One at a time too: many executions of the same statements, past any prepare threshold.
        errand.enqueueAll(requests.subList(0, TASKS));
        requests.subList(TASKS, requests.size()).forEach(errand::enqueue);
    }

    @Test
    void transactionModeRunsEverythingWithPrepareThresholdZeroAndPollsInsteadOfListening() throws Exception {
        PgBouncer bouncer = bouncer(PgBouncer.PoolMode.TRANSACTION);
        HikariDataSource pool = pool(bouncer.url("prepareThreshold=0"));
        AtomicInteger plain = new AtomicInteger();
        AtomicInteger ticks = new AtomicInteger();
        // Migrations, the node's registration and every statement below go through PgBouncer.
        Errand errand = through(everything(pool, plain, ticks));

        String log = capturingStandardError(errand::start);
        assertThat(log)
                .contains("receives no PostgreSQL notifications through its data source")
                .contains("errand.notifications.url");
        assertThat(log).doesNotContain("LISTEN connection failed");

        enqueueWork(errand);
        long waiting = errand.enqueue(
                        TaskRequest.builder("tx", -1).condition("paid").build())
                .id();
        await().atMost(WAIT).until(() -> distinctEffects() == TASKS && plain.get() == TASKS);
        assertThat(task(errand, waiting).state()).isEqualTo(dev.errand.task.TaskState.WAITING);
        assertThat(errand.triggerEvent("paid").releasedTasks()).isEqualTo(1);
        await().atMost(WAIT).until(() -> distinctEffects() == TASKS + 1);
        await().atMost(WAIT).until(() -> ticks.get() >= 2);

        assertThat(effects()).as("each transactional effect once").isEqualTo(TASKS + 1);
        assertThat(errand.isLeader())
                .as("the lone node holds the leader's lease through PgBouncer")
                .isTrue();
        assertThat(errand.cluster().leader()).isPresent();
        assertThat(errand.stats().failed()).isZero();
    }

    @Test
    void transactionModeWithTheDriversServerSidePreparedStatementsIsRefusedBeforeTheMigrations() throws Exception {
        PgBouncer bouncer = bouncer(PgBouncer.PoolMode.TRANSACTION);
        HikariDataSource pool = pool(bouncer.url(""));
        // Refused before the migrations, which would fail on the first prepared statement.
        assertThatThrownBy(() -> through(builder(pool)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("transaction")
                .hasMessageContaining("prepareThreshold=0")
                .hasMessageContaining("session mode");
    }

    @Test
    void aDirectConnectionToListenOnWakesTheNodeThroughATransactionPool() throws Exception {
        PgBouncer bouncer = bouncer(PgBouncer.PoolMode.TRANSACTION);
        HikariDataSource pool = pool(bouncer.url("prepareThreshold=0"));
        AtomicInteger ran = new AtomicInteger();
        // Polling alone would take a minute: only a notification can start the task in time.
        Errand errand = through(builder(pool)
                .pollInterval(Duration.ofMinutes(1))
                .notificationDataSource(direct())
                .register(TaskDefinition.builder("plain", Integer.class, (n, ctx) -> ran.incrementAndGet())
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
        String log = capturingStandardError(errand::start);
        assertThat(log).doesNotContain("receives no PostgreSQL notifications");
        awaitFirstPoll(errand);

        errand.enqueue(TaskRequest.of("plain", 1));
        await().atMost(Duration.ofSeconds(10)).until(() -> ran.get() == 1);
    }

    @Test
    void sessionModeWorksUnchangedWithTheDriversDefaultsAndListens() throws Exception {
        PgBouncer bouncer = bouncer(PgBouncer.PoolMode.SESSION);
        HikariDataSource pool = pool(bouncer.url(""));
        AtomicInteger plain = new AtomicInteger();
        AtomicInteger ticks = new AtomicInteger();
        Errand errand = through(everything(pool, plain, ticks).pollInterval(Duration.ofMinutes(1)));
        String log = capturingStandardError(errand::start);
        assertThat(log).doesNotContain("receives no PostgreSQL notifications");
        awaitFirstPoll(errand);

        // With a one-minute poll interval, only notifications through PgBouncer bring these in time.
        enqueueWork(errand);
        await().atMost(WAIT).until(() -> distinctEffects() == TASKS && plain.get() == TASKS);
        assertThat(effects()).isEqualTo(TASKS);
    }

    @Test
    void notificationsOffSkipTheCheckAndPoll() throws Exception {
        PgBouncer bouncer = bouncer(PgBouncer.PoolMode.TRANSACTION);
        HikariDataSource pool = pool(bouncer.url("prepareThreshold=0"));
        AtomicInteger ran = new AtomicInteger();
        Errand errand = through(builder(pool)
                .notifications(false)
                .register(TaskDefinition.builder("plain", Integer.class, (n, ctx) -> ran.incrementAndGet())
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
        String log = capturingStandardError(errand::start);
        assertThat(log).contains("notifications are off").doesNotContain("receives no PostgreSQL notifications");
        errand.enqueue(TaskRequest.of("plain", 1));
        await().atMost(WAIT).until(() -> ran.get() == 1);
    }

    @Test
    void badNotificationSettingsAreRefusedWithWhatToDo() {
        assertThatThrownBy(() -> builder().notificationDataSource(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("notifications(false)");
    }

    /** Runs {@code action} while standard error (where slf4j-simple logs) is copied aside; returns the copy. */
    private static String capturingStandardError(Runnable action) {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.err;
        System.setErr(new PrintStream(
                new OutputStream() {
                    @Override
                    public void write(int b) {
                        original.write(b);
                        captured.write(b);
                    }

                    @Override
                    public void write(byte[] bytes, int offset, int length) {
                        original.write(bytes, offset, length);
                        captured.write(bytes, offset, length);
                    }
                },
                true,
                StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
