package dev.errand.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.Errand;
import dev.errand.schedule.Schedule;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Nodes that fire a schedule are killed with SIGKILL, again and again, while another keeps running: no
 * slot is missed and none fires twice. Real processes on PostgreSQL, a one-second schedule in real time.
 */
class ScheduleCrashTest extends ErrandTestSupport {

    static final String NAME = "every-second";

    ScheduleCrashTest() {
        super(Target.of(TestDatabase.POSTGRES));
    }

    static TaskDefinition<Void> tick() {
        return TaskDefinition.builder("tick", Void.class, (payload, ctx) -> {})
                .mode(ExecutionMode.NON_TRANSACTIONAL)
                .build();
    }

    static Schedule everySecond() {
        return Schedule.every(NAME, "tick", Duration.ofSeconds(1)).build();
    }

    @Test
    void killedNodesMissNoSlotAndDoubleNone() throws Exception {
        Errand survivor = node(builder()
                .pollInterval(Duration.ofMillis(20))
                .succeededRetention(Duration.ofHours(1))
                .register(tick())
                .schedule(everySecond()));
        survivor.start();
        for (int round = 0; round < 4; round++) {
            CrashChild child = CrashChild.startMain(
                    ScheduleWorkerMain.class,
                    "128m",
                    "schedule-child-" + round,
                    database.url(),
                    database.userName(),
                    prefix,
                    "schedule-child-" + round);
            try {
                child.awaitLine(ScheduleWorkerMain.READY, Duration.ofSeconds(30));
                // Let it fire and compete for a while, then kill it in the middle of whatever it does.
                Thread.sleep(1_500 + 250L * round);
                assertThat(child.killHard(Duration.ofSeconds(10))).isEqualTo(CrashChild.SIGKILL_EXIT_STATUS);
            } finally {
                child.destroy();
            }
        }
        Thread.sleep(2_000);
        survivor.stop(Duration.ofSeconds(5));

        List<Long> slots = new ArrayList<>();
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery(
                        "SELECT unique_key FROM " + prefix + "task WHERE kind = 'tick'" + " ORDER BY run_at")) {
            while (rows.next()) {
                String key = rows.getString(1);
                slots.add(Long.parseLong(key.substring(key.indexOf('@') + 1)));
            }
        }
        assertThat(slots).as("slots fired").hasSizeGreaterThan(8).doesNotHaveDuplicates();
        for (int i = 1; i < slots.size(); i++) {
            assertThat(slots.get(i) - slots.get(i - 1))
                    .as("gap after slot %d", slots.get(i - 1))
                    .isEqualTo(1_000L);
        }
    }
}
