package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.errand.Errand;
import dev.errand.schedule.Schedule;
import dev.errand.schedule.ScheduleInfo;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testkit.TestDatabase;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A schedule row that an operator broke with SQL costs only itself, on a real database with real firing
 * (schedules every second): the firing node pauses it with the reason on its row and says so once, the
 * other schedules keep firing, the node stays healthy, and the bad row is still listed and can be paused,
 * fixed and removed through the API.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class ScheduleBadRowContractTest extends ErrandTestSupport {

    record Tick(String note) {}

    /**
     * A way to break a row with SQL.
     *
     * @param label the case's name
     * @param assignments the SQL {@code SET} list on this database
     * @param problem what the reason says
     * @param timing what the listing shows as the row's timing
     */
    record BadRow(String label, Function<TestDatabase, String> assignments, String problem, String timing) {
        @Override
        public String toString() {
            return label;
        }
    }

    private final List<String> notes = new CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private PrintStream originalErr;

    ScheduleBadRowContractTest(Target target) {
        super(target);
    }

    /** The cases that run on every database; the others run on H2. */
    private static final Set<String> ON_EVERY_DATABASE =
            Set.of("not a cron", "zero interval", "next slot at the end of time");

    static Stream<BadRow> badRows() {
        return Stream.of(
                new BadRow(
                        "cron that never fires",
                        db -> "cron = '0 0 30 2 *', interval_ms = NULL",
                        "never fires",
                        "0 0 30 2 *"),
                new BadRow(
                        "not a cron",
                        db -> "cron = 'not a cron', interval_ms = NULL",
                        "cron expression \"not a cron\" has 3 fields",
                        "not a cron"),
                new BadRow(
                        "unknown zone",
                        db -> "time_zone = 'Mars/Phobos'",
                        "unknown time zone \"Mars/Phobos\"",
                        "every PT1S"),
                new BadRow("zero interval", db -> "interval_ms = 0", "got PT0S", "every PT0S"),
                new BadRow("negative interval", db -> "interval_ms = -1000", "got PT-1S", "every PT-1S"),
                new BadRow(
                        "no timing", db -> "interval_ms = NULL", "neither a cron expression nor interval_ms", "none"),
                new BadRow(
                        "both timings",
                        db -> "cron = '* * * * *'",
                        "both a cron expression and interval_ms",
                        "* * * * *"),
                new BadRow(
                        "unknown misfire policy",
                        db -> "misfire = 'sometimes'",
                        "misfire \"sometimes\" is none of",
                        "every PT1S"),
                new BadRow("blank kind", db -> "kind = ' '", "Task kind must be", "every PT1S"),
                new BadRow(
                        "next slot at the end of time",
                        db -> "next_run_at = " + timestamp(db, "9999-12-31 23:59:59"),
                        "the latest a schedule's row holds",
                        "every PT1S"));
    }

    private static String timestamp(TestDatabase db, String utc) {
        return switch (db) {
            case POSTGRES -> "TIMESTAMPTZ '" + utc + "+00'";
            case MARIADB -> "'" + utc + "'";
            default -> "TIMESTAMP WITH TIME ZONE '" + utc + "+00'";
        };
    }

    @BeforeEach
    void captureLog() {
        originalErr = System.err;
        System.setErr(new PrintStream(new Tee(originalErr, log), true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreLog() {
        System.setErr(originalErr);
    }

    private Errand everySecond(String... names) {
        var builder = builder()
                .register(TaskDefinition.builder("tick", Tick.class, (tick, ctx) -> notes.add(tick.note()))
                        .build());
        for (String name : names) {
            builder.schedule(Schedule.every(name, "tick", Duration.ofSeconds(1))
                    .payload(new Tick(name))
                    .build());
        }
        return node(builder);
    }

    private long fired(String name) {
        return notes.stream().filter(name::equals).count();
    }

    private void breakRow(String name, String assignments) throws SQLException {
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            assertThat(s.executeUpdate(
                            "UPDATE " + prefix + "schedule SET " + assignments + " WHERE name = '" + name + "'"))
                    .isEqualTo(1);
        }
    }

    private String pauseReasonColumn(String name) throws SQLException {
        try (Connection c = dataSource().getConnection();
                PreparedStatement s =
                        c.prepareStatement("SELECT pause_reason FROM " + prefix + "schedule WHERE name = ?")) {
            s.setString(1, name);
            try (ResultSet row = s.executeQuery()) {
                assertThat(row.next()).isTrue();
                return row.getString(1);
            }
        }
    }

    /** The ERROR lines Errand wrote about the schedule of this name. */
    private List<String> errorsAbout(String name) {
        return Arrays.stream(log.toString(StandardCharsets.UTF_8).split("\n"))
                .filter(line -> line.contains(" ERROR ") && line.contains("Schedule \"" + name + "\""))
                .toList();
    }

    private ScheduleInfo awaitPausedWithReason(Errand node, String name) {
        await().atMost(Duration.ofSeconds(10)).until(() -> node.schedules()
                .find(name)
                .map(info -> info.paused() && info.problem() != null)
                .orElse(false));
        return node.schedules().find(name).orElseThrow();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRows")
    void oneBadRowIsPausedWithItsReasonAndTheOthersKeepFiring(BadRow bad) throws Exception {
        // Every way of breaking a row is read by the same Java code whatever the database; the row's read and the
        // pause's write are SQL. So every case runs on H2 (the embedded default), and on the other databases the
        // cases that reach the SQL differently (a bad text, a bad number, a timestamp literal) run: the 10 cases
        // on 4 targets took 3 to 4 minutes of CI's 30 (each waits out one-second schedules).
        assumeTrue(
                database == TestDatabase.H2 || ON_EVERY_DATABASE.contains(bad.label()),
                "run on H2 only: " + bad.label());
        Errand node = everySecond("good", "bad");
        node.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> fired("good") >= 1 && fired("bad") >= 1);

        breakRow("bad", bad.assignments().apply(database));
        ScheduleInfo paused = awaitPausedWithReason(node, "bad");
        assertThat(paused.problem())
                .contains(bad.problem())
                .contains("paused by node " + node.settings().nodeId());
        assertThat(paused.timing()).isEqualTo(bad.timing());
        assertThat(pauseReasonColumn("bad")).isEqualTo(paused.problem());

        long good = fired("good");
        long badSlots = fired("bad");
        await().atMost(Duration.ofSeconds(10))
                .alias("the good schedule keeps firing")
                .until(() -> fired("good") >= good + 2);
        assertThat(node.health().healthy())
                .as("healthy: %s", node.health().problems())
                .isTrue();
        // A slot written ahead before the row was broken may still run; none after it.
        assertThat(fired("bad")).isLessThanOrEqualTo(badSlots + 1);
        assertThat(errorsAbout("bad"))
                .as("the pause is said once, not at every poll")
                .hasSize(1);
        assertThat(errorsAbout("bad").get(0)).contains(bad.problem());
        assertThat(node.schedules().list())
                .extracting(ScheduleInfo::name, ScheduleInfo::paused)
                .containsExactly(tuple("bad", true), tuple("good", false));
        assertThat(node.schedules().find("good").orElseThrow().problem()).isNull();

        assertThat(node.schedules().remove("bad")).isTrue();
        assertThat(node.schedules().list()).extracting(ScheduleInfo::name).containsExactly("good");
    }

    @Test
    void aRowTheBuilderWouldRefuseCanBePausedFixedAndRemovedThroughTheApi() throws Exception {
        Errand node = everySecond("good", "bad");
        node.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> fired("bad") >= 1);
        breakRow("bad", "interval_ms = 0");
        awaitPausedWithReason(node, "bad");

        // Paused again by hand: still paused, the reason stays.
        assertThat(node.schedules().pause("bad")).isTrue();
        assertThat(node.schedules().find("bad").orElseThrow().problem()).contains("got PT0S");
        // It cannot be resumed as it is: no slot can be computed, and the firing node would pause it again.
        assertThatThrownBy(() -> node.schedules().resume("bad"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("got PT0S")
                .hasMessageContaining("upsert");
        assertThat(node.schedules().find("bad").orElseThrow().paused()).isTrue();

        // Fixed through the API: it fires again, with no reason left.
        node.schedules()
                .upsert(Schedule.every("bad", "tick", Duration.ofSeconds(1))
                        .payload(new Tick("bad"))
                        .build());
        ScheduleInfo fixed = node.schedules().find("bad").orElseThrow();
        assertThat(fixed.paused()).isFalse();
        assertThat(fixed.problem()).isNull();
        assertThat(fixed.timing()).isEqualTo("every PT1S");
        assertThat(pauseReasonColumn("bad")).isNull();
        long before = fired("bad");
        await().atMost(Duration.ofSeconds(10)).until(() -> fired("bad") >= before + 2);

        // Broken while its next slot is far off: listed with its problem before any node fires it.
        node.schedules()
                .upsert(Schedule.every("later", "tick", Duration.ofDays(1))
                        .payload(new Tick("later"))
                        .build());
        breakRow("later", "time_zone = 'Mars/Phobos'");
        ScheduleInfo later = node.schedules().find("later").orElseThrow();
        assertThat(later.paused()).isFalse();
        assertThat(later.problem()).contains("unknown time zone \"Mars/Phobos\"");
        assertThat(later.zone()).isEqualTo("Mars/Phobos");
        assertThat(node.schedules().remove("later")).isTrue();
        assertThat(node.schedules().find("later")).isEmpty();
    }

    @Test
    void aRowFixedWithTheSqlOfTheSchemaReferenceFiresAgain() throws Exception {
        Errand node = everySecond("good", "bad");
        node.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> fired("bad") >= 1);
        breakRow("bad", "interval_ms = 0");
        awaitPausedWithReason(node, "bad");

        // The recipes of SCHEMA.md, "Schedules Errand paused, and why".
        List<String> paused = new ArrayList<>();
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT name, cron, interval_ms, time_zone, misfire, pause_reason FROM "
                        + prefix + "schedule WHERE paused AND pause_reason IS NOT NULL ORDER BY name")) {
            while (rows.next()) {
                paused.add(rows.getString("name") + ": " + rows.getString("pause_reason"));
            }
        }
        assertThat(paused).singleElement().asString().startsWith("bad: ").contains("got PT0S");
        breakRow(
                "bad",
                "interval_ms = 1000, cron = NULL, paused = FALSE, pause_reason = NULL, fire_at = " + database.nowSql());
        long before = fired("bad");
        await().atMost(Duration.ofSeconds(10)).until(() -> fired("bad") >= before + 2);
        ScheduleInfo fixed = node.schedules().find("bad").orElseThrow();
        assertThat(fixed.paused()).isFalse();
        assertThat(fixed.problem()).isNull();
    }

    @Test
    void aScheduleAnotherNodePausedForAReasonThisNodeCanReadIsResumedHere() throws Exception {
        // As in a mixed cluster: a node whose time-zone data lacks a zone paused it; this node knows the zone.
        Errand node = everySecond("zoned");
        breakRow("zoned", "paused = TRUE, pause_reason = 'unknown time zone on node old-1'");
        node.start();
        ScheduleInfo paused = node.schedules().find("zoned").orElseThrow();
        assertThat(paused.paused()).isTrue();
        assertThat(paused.problem()).isEqualTo("unknown time zone on node old-1");
        assertThat(node.schedules().resume("zoned")).isTrue();
        assertThat(node.schedules().find("zoned").orElseThrow().problem()).isNull();
        await().atMost(Duration.ofSeconds(10)).until(() -> fired("zoned") >= 2);
    }

    /** Writes to the console and to a buffer. */
    private static final class Tee extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        Tee(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public void write(int b) throws java.io.IOException {
            first.write(b);
            synchronized (second) {
                second.write(b);
            }
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws java.io.IOException {
            first.write(bytes, offset, length);
            synchronized (second) {
                second.write(bytes, offset, length);
            }
        }
    }
}
