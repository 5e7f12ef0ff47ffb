package dev.errand.scripting.testing;

import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.scripting.ErrandScripting;
import dev.errand.scripting.ScriptingOptions;
import dev.errand.task.Task;
import dev.errand.task.TaskState;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;

/**
 * Base of scripting's contract tests: a table prefix of its own per test on a real database, an {@code effect}
 * table scripts write to, and nodes with fast test settings that are stopped after the test.
 */
public abstract class ScriptingTestSupport {

    protected TestDatabase database;
    protected String prefix;
    private final List<Errand> nodes = new ArrayList<>();

    /** The databases the suite runs on (all, or those of {@code -Derrand.test.databases}). */
    public static Stream<TestDatabase> databases() {
        return TestDatabase.selected().stream();
    }

    /** Starts a test on {@code database}: a fresh prefix and the effect table. */
    protected void on(TestDatabase database) throws SQLException {
        this.database = database;
        this.prefix = TestDatabase.newPrefix();
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
        if (database != null) {
            database.dropTables(prefix);
        }
    }

    protected DataSource dataSource() {
        return database.dataSource();
    }

    /** The effect table's name, for scripts. */
    protected String effectTable() {
        return prefix + "effect";
    }

    /** A node builder with fast test settings on this test's prefix. */
    protected ErrandBuilder builder() {
        return Errand.builder(dataSource())
                .tablePrefix(prefix)
                .pollInterval(Duration.ofMillis(50))
                .heartbeatInterval(Duration.ofMillis(200))
                .leaseDuration(Duration.ofSeconds(2))
                .rescueInterval(Duration.ofHours(1))
                .shutdownTimeout(Duration.ofSeconds(5))
                // Succeeded tasks stay readable, and every attempt keeps its processing log.
                .succeededRetention(Duration.ofHours(1))
                .historyEnabled(true);
    }

    /** Options on this test's prefix. */
    protected ScriptingOptions.Builder options() {
        return ScriptingOptions.builder().tablePrefix(prefix);
    }

    /** Builds a node that is stopped after the test (not started). */
    protected Errand node(ErrandBuilder builder) {
        Errand node = builder.build();
        nodes.add(node);
        return node;
    }

    /** Scripting with default options on a node built with {@code builder}; returns both. */
    protected record Installed(Errand errand, ErrandScripting scripting) {}

    protected Installed install(ErrandBuilder builder, ScriptingOptions options) {
        ErrandScripting scripting = ErrandScripting.install(builder, dataSource(), options);
        return new Installed(node(builder), scripting);
    }

    /** The notes of the effect table, ordered by task id. */
    protected List<String> notes() throws SQLException {
        List<String> notes = new ArrayList<>();
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT note FROM " + effectTable() + " ORDER BY task_id, note")) {
            while (rows.next()) {
                notes.add(rows.getString(1));
            }
        }
        return notes;
    }

    protected long scalar(String sql) throws SQLException {
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /** How many script versions are stored. */
    protected long storedVersions() throws SQLException {
        return scalar("SELECT COUNT(*) FROM " + prefix + "script");
    }

    /** Waits until task {@code id} is in {@code state} and returns it. */
    protected static Task awaitState(Errand errand, long id, TaskState state) {
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> errand.admin().find(id).map(Task::state).orElse(null) == state);
        return errand.admin().find(id).orElseThrow();
    }
}
