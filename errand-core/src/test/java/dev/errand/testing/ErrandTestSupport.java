package dev.errand.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.internal.node.Nodes;
import dev.errand.spi.DatabaseClock;
import dev.errand.spi.ShiftableClock;
import dev.errand.task.Task;
import dev.errand.task.TaskState;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Base of the contract tests: each test gets its own table prefix on a real database, a shiftable
 * clock, and an {@code effect} table that handlers write to. Nodes built with {@link #node()} are
 * stopped after the test.
 */
public abstract class ErrandTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    protected final TestDatabase database;
    protected final Target target;
    protected String prefix;
    protected ShiftableClock clock;
    private final List<Errand> nodes = new ArrayList<>();

    protected ErrandTestSupport(Target target) {
        this.target = target;
        this.database = target.database();
    }

    @BeforeEach
    void createPrefix() throws SQLException {
        prefix = TestDatabase.newPrefix();
        clock = DatabaseClock.shiftable();
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + prefix + "effect (task_id BIGINT NOT NULL, note VARCHAR(200))");
        }
    }

    @AfterEach
    void stopNodesAndDropTables() {
        for (Errand node : nodes) {
            node.stop(Duration.ofSeconds(5));
        }
        nodes.clear();
        database.dropTables(prefix);
    }

    protected DataSource dataSource() {
        return database.dataSource();
    }

    /** A builder with fast test settings, on this test's prefix and clock. */
    protected ErrandBuilder builder() {
        return builder(dataSource());
    }

    /** The same, on another DataSource. */
    protected ErrandBuilder builder(DataSource dataSource) {
        return Errand.builder(dataSource)
                .claimStrategy(target.claimStrategy())
                .tablePrefix(prefix)
                .clock(clock)
                .pollInterval(Duration.ofMillis(50))
                .heartbeatInterval(Duration.ofMillis(200))
                .leaseDuration(Duration.ofSeconds(2))
                .rescueInterval(Duration.ofHours(1))
                .shutdownTimeout(Duration.ofSeconds(5));
    }

    /** Builds a node that is stopped after the test (not started). */
    protected Errand node(ErrandBuilder builder) {
        Errand node = builder.build();
        nodes.add(node);
        return node;
    }

    /**
     * Waits until the node's pollers have made their first claim, so that a task enqueued from here on is
     * claimed only by a wake-up or a later poll.
     */
    protected static void awaitFirstPoll(Errand errand) {
        await().atMost(Duration.ofSeconds(10)).until(() -> Nodes.of(errand).polls() > 0);
    }

    /** Writes an effect row on the handler's connection. */
    protected void recordEffect(Connection connection, long taskId, String note) throws SQLException {
        try (PreparedStatement s =
                connection.prepareStatement("INSERT INTO " + prefix + "effect (task_id, note) VALUES (?, ?)")) {
            s.setLong(1, taskId);
            s.setString(2, note);
            s.executeUpdate();
        }
    }

    /** Writes an effect row in its own transaction. */
    protected void recordEffect(long taskId, String note) throws SQLException {
        try (Connection c = dataSource().getConnection()) {
            recordEffect(c, taskId, note);
        }
    }

    protected long effects() throws SQLException {
        return scalar("SELECT COUNT(*) FROM " + prefix + "effect");
    }

    protected long distinctEffects() throws SQLException {
        return scalar("SELECT COUNT(DISTINCT task_id) FROM " + prefix + "effect");
    }

    protected List<String> effectNotes() throws SQLException {
        List<String> notes = new ArrayList<>();
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT note FROM " + prefix + "effect")) {
            while (rows.next()) {
                notes.add(rows.getString(1));
            }
        }
        return notes;
    }

    protected long taskRows() throws SQLException {
        return scalar("SELECT COUNT(*) FROM " + prefix + "task");
    }

    protected long tasksIn(TaskState state) throws SQLException {
        return scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE state = '" + state.dbValue() + "'");
    }

    protected long scalar(String sql) throws SQLException {
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /** The database's current time (without the test clock's offset). */
    protected Instant databaseNow() throws SQLException {
        return database.now();
    }

    /** The {@code attempt} numbers of a task's error history, in order. */
    protected static List<Integer> errorAttempts(Task task) {
        List<Integer> attempts = new ArrayList<>();
        if (task.errorsJson() != null) {
            for (JsonNode entry : JSON.readTree(task.errorsJson())) {
                attempts.add(entry.get("attempt").asInt());
                if (!entry.hasNonNull("at") || !entry.hasNonNull("error") || !entry.hasNonNull("node")) {
                    throw new AssertionError("incomplete error entry " + entry);
                }
            }
        }
        return attempts;
    }

    protected Task task(Errand node, long id) {
        return node.admin().find(id).orElseThrow(() -> new AssertionError("task " + id + " is gone"));
    }

    /**
     * The successes the nodes counted, once they have counted at least {@code expected}. A node counts its
     * successes just after their commit, so a task's row can be gone a moment before its count: CI read 104
     * of 300 once, right after the rows went.
     */
    public static long succeeded(long expected, Errand... nodes) {
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(10))
                .untilAsserted(() ->
                        assertThat(sumSucceeded(nodes)).as("successes counted").isGreaterThanOrEqualTo(expected));
        return sumSucceeded(nodes);
    }

    private static long sumSucceeded(Errand... nodes) {
        long sum = 0;
        for (Errand node : nodes) {
            sum += node.stats().succeeded();
        }
        return sum;
    }
}
