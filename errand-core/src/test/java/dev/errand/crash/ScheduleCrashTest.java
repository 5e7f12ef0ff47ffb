package dev.errand.crash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.schedule.Schedule;
import dev.errand.schedule.ScheduleInfo;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testing.Targets;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Nodes in the middle of firing a sweep of many schedules are killed with SIGKILL, one after another, while
 * others run: each due slot of each schedule still produces exactly one task, none missed, none doubled.
 * Real processes, in real time, on PostgreSQL, MariaDB and H2 (an H2 TCP server the test starts on a free
 * port, shared with the child JVMs).
 *
 * <p>Only the child JVMs fire: whichever of them announces that it holds the locks of a firing transaction
 * is the one killed, so the test holds whether every node fires or only the cluster's leader does. Schedules
 * fire on the leader only, so after each kill the test waits until the slot that was due has fired before
 * the next kill: one killed node at a time. Killing each new leader at its first firing, back to back,
 * leaves the cluster firing nothing for as long as the kills go on, as if it were down, and slots older than
 * the grace then follow the misfire policy.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("targets")
class ScheduleCrashTest extends ErrandTestSupport {

    static final int SCHEDULES = 200;
    static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final int NODES = 3;
    /** Two in CI; -Derrand.crash.scheduleKills=4 (or more) for a longer run, about 15 s per kill. */
    private static final int KILLS = Integer.getInteger("errand.crash.scheduleKills", 2);
    /**
     * The children's schedule lookahead in milliseconds, or empty for the default (1 min): with the default
     * and 10 s slots, nearly every firing writes the next slot ahead; with {@code
     * -Derrand.crash.scheduleLookahead=0} every firing writes a slot that has come.
     */
    private static final String LOOKAHEAD_MILLIS = System.getProperty("errand.crash.scheduleLookahead", "");
    /** How long a child holds a firing transaction open after it locked its schedules. */
    private static final long HOLD_MILLIS = 400;
    /** The children's dead-node timeout, which is also how long a dead leader's lease keeps others out. */
    static final Duration LEADER_LEASE = Duration.ofSeconds(3);

    private static final H2TcpDatabase H2_OVER_TCP = new H2TcpDatabase("errand_schedule_crash", 10);

    ScheduleCrashTest(Target target) {
        super(target);
    }

    /**
     * PostgreSQL and MariaDB; H2 (through a TCP server) too with {@code -Derrand.crash.scheduleH2=true}, as
     * {@code scripts/schedule-crash-full.sh} runs it: about 40 s per database, which CI spends on the servers.
     */
    static Stream<Target> targets() {
        Stream<Target> h2 = Boolean.getBoolean("errand.crash.scheduleH2")
                        && TestDatabase.selected().contains(TestDatabase.H2)
                ? Stream.of(Target.of(TestDatabase.H2))
                : Stream.empty();
        return Stream.concat(Targets.servers(), h2);
    }

    /** The kind the schedules enqueue: a no-op, so that the task rows are what the test counts. */
    static TaskDefinition<Void> tick() {
        return TaskDefinition.builder("tick", Void.class, (payload, ctx) -> {})
                .mode(ExecutionMode.NON_TRANSACTIONAL)
                .build();
    }

    /** Registers the kind and declares the test's schedules on {@code builder}. */
    static ErrandBuilder declare(ErrandBuilder builder, int schedules) {
        builder.register(tick());
        for (int i = 0; i < schedules; i++) {
            builder.schedule(Schedule.every(name(i), "tick", INTERVAL).build());
        }
        return builder;
    }

    static String name(int i) {
        return String.format(java.util.Locale.ROOT, "crash-%03d", i);
    }

    @Override
    protected DataSource dataSource() {
        return database.isH2() ? H2_OVER_TCP.dataSource() : super.dataSource();
    }

    @AfterAll
    static void stopH2() throws java.sql.SQLException {
        H2_OVER_TCP.stop();
    }

    private String url() {
        return database.isH2() ? H2_OVER_TCP.url() : database.url();
    }

    @Test
    void nodesKilledInTheMiddleOfAFiringSweepMissNoSlotAndDoubleNone() throws Exception {
        long started = System.nanoTime();
        // Declared here first, by a node that never starts: the first slot of each schedule is known.
        Errand declarer = node(declare(builder(), SCHEDULES));
        Map<String, Instant> firstSlots = new HashMap<>();
        for (ScheduleInfo info : declarer.schedules().list()) {
            firstSlots.put(info.name(), info.nextRunAt());
        }
        assertThat(firstSlots).hasSize(SCHEDULES);

        List<CrashChild> alive = new ArrayList<>();
        List<Long> reactionMillis = new ArrayList<>();
        List<Long> recoveryMillis = new ArrayList<>();
        Instant lastKill;
        int children = 0;
        try {
            for (int i = 0; i < NODES; i++) {
                alive.add(child("schedule-child-" + children++));
            }
            for (CrashChild child : alive) {
                child.awaitLine(ScheduleWorkerMain.READY, Duration.ofSeconds(60));
            }
            for (int kill = 0; kill < KILLS; kill++) {
                // Old announcements are stale: wait for a node to lock schedules from now on.
                for (CrashChild child : alive) {
                    while (child.pollLine(ScheduleWorkerMain.LOCKED, Duration.ZERO) != null) {
                        // Dropped.
                    }
                }
                CrashChild firing = null;
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (firing == null && System.nanoTime() < deadline) {
                    for (CrashChild child : alive) {
                        if (child.pollLine(ScheduleWorkerMain.LOCKED, Duration.ofMillis(5)) != null) {
                            firing = child;
                            break;
                        }
                    }
                }
                assertThat(firing)
                        .as("a node that locks due schedules within 60 s")
                        .isNotNull();
                long seen = System.nanoTime();
                // It holds its firing transaction open for HOLD_MILLIS: this kill lands inside it.
                assertThat(firing.killHard(Duration.ofSeconds(10))).isEqualTo(CrashChild.SIGKILL_EXIT_STATUS);
                reactionMillis.add((System.nanoTime() - seen) / 1_000_000);
                Instant killedAt = databaseNow();
                alive.remove(firing);
                CrashChild replacement = child("schedule-child-" + children++);
                alive.add(replacement);
                replacement.awaitLine(ScheduleWorkerMain.READY, Duration.ofSeconds(60));
                // The slot that was due when it died fires on another node before the next kill.
                Instant due = slotAtOrBefore(killedAt);
                await().atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> declarer.schedules().list().stream()
                                .allMatch(info -> info.lastRunAt() != null
                                        && !info.lastRunAt().isBefore(due)));
                recoveryMillis.add(Duration.between(killedAt, databaseNow()).toMillis());
            }
            lastKill = databaseNow();
            // The survivors fire on: every schedule fires the first slot after the last kill.
            Instant after = slotAtOrBefore(lastKill).plus(INTERVAL);
            await().atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> declarer.schedules().list().stream()
                            .allMatch(info -> info.lastRunAt() != null
                                    && !info.lastRunAt().isBefore(after)));
        } finally {
            // Killed as well, whatever they are doing: what they committed stands, the rest rolls back.
            alive.forEach(CrashChild::destroy);
        }

        Map<String, List<Long>> fired = new TreeMap<>();
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery(
                        "SELECT unique_key FROM " + prefix + "task WHERE kind = 'tick' ORDER BY unique_key")) {
            while (rows.next()) {
                String key = rows.getString(1);
                String name = key.substring("schedule:".length(), key.indexOf('@'));
                fired.computeIfAbsent(name, n -> new ArrayList<>())
                        .add(Long.parseLong(key.substring(key.indexOf('@') + 1)));
            }
        }
        Map<String, ScheduleInfo> stored = new HashMap<>();
        declarer.schedules().list().forEach(info -> stored.put(info.name(), info));
        assertThat(fired).as("schedules that fired").hasSize(SCHEDULES);
        long tasks = 0;
        for (Map.Entry<String, List<Long>> schedule : fired.entrySet()) {
            List<Long> slots = new ArrayList<>(schedule.getValue());
            slots.sort(null);
            String name = schedule.getKey();
            assertThat(slots).as("slots of %s", name).doesNotHaveDuplicates();
            assertThat(slots.get(0))
                    .as("first slot of %s", name)
                    .isEqualTo(firstSlots.get(name).toEpochMilli());
            for (int i = 1; i < slots.size(); i++) {
                assertThat(slots.get(i) - slots.get(i - 1))
                        .as("gap after slot %d of %s", slots.get(i - 1), name)
                        .isEqualTo(INTERVAL.toMillis());
            }
            // The last slot that has come, or the next one if its task was already written ahead of it.
            ScheduleInfo info = stored.get(name);
            assertThat(slots.get(slots.size() - 1))
                    .as("last slot of %s (%s)", name, info)
                    .isIn(info.lastRunAt().toEpochMilli(), info.nextRunAt().toEpochMilli());
            tasks += slots.size();
        }
        System.out.printf(
                "ScheduleCrashTest %s (lookahead %s): %d schedules every %s, %d nodes killed while firing (%s ms from the"
                        + " announcement to the kill, each within the %d ms hold; %s ms from the kill until every"
                        + " schedule had fired the slot then due, with a leader lease of %s), %d tasks, one per slot,"
                        + " in %.1f s%n",
                database.displayName(),
                LOOKAHEAD_MILLIS.isBlank() ? "default" : LOOKAHEAD_MILLIS.trim() + " ms",
                SCHEDULES,
                INTERVAL,
                KILLS,
                reactionMillis,
                HOLD_MILLIS,
                recoveryMillis,
                LEADER_LEASE,
                tasks,
                (System.nanoTime() - started) / 1e9);
        assertThat(reactionMillis)
                .as("kills inside the held firing transaction")
                .allMatch(ms -> ms < HOLD_MILLIS);
    }

    /** The schedules' slot at or before {@code moment}: they all fire every {@link #INTERVAL} from the epoch. */
    private static Instant slotAtOrBefore(Instant moment) {
        return Instant.ofEpochMilli(Math.floorDiv(moment.toEpochMilli(), INTERVAL.toMillis()) * INTERVAL.toMillis());
    }

    private CrashChild child(String name) throws java.io.IOException {
        List<String> args = new ArrayList<>(List.of(
                url(), database.userName(), prefix, name, String.valueOf(SCHEDULES), String.valueOf(HOLD_MILLIS)));
        if (!LOOKAHEAD_MILLIS.isBlank()) {
            args.add(String.valueOf(Long.parseLong(LOOKAHEAD_MILLIS.trim())));
        }
        return CrashChild.startMain(ScheduleWorkerMain.class, "160m", name, args.toArray(String[]::new));
    }
}
