package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.Enqueued;
import dev.errand.schedule.Schedule;
import dev.errand.schedule.ScheduleInfo;
import dev.errand.task.Task;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code ScheduleAdmin.runNow}: a schedule's task by hand, outside its slots, on a real database: its kind,
 * queue and payload, due at once; one task for a double click; a paused schedule runs too; the schedule's
 * slots do not move.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class ScheduleRunNowContractTest extends ErrandTestSupport {

    record Tick(String note) {}

    private final List<String> notes = new CopyOnWriteArrayList<>();

    ScheduleRunNowContractTest(Target target) {
        super(target);
    }

    private Errand node() {
        return node(builder()
                .queue("reports", 1)
                .register(TaskDefinition.builder("tick", Tick.class, (tick, ctx) -> notes.add(tick.note()))
                        .maxAttempts(7)
                        .build())
                .schedule(Schedule.cron("nightly", "tick", "0 0 3 * * *")
                        .payload(new Tick("by hand"))
                        .queue("reports")
                        .build()));
    }

    @Test
    void runsTheSchedulesTaskNowWithoutMovingItsSlots() throws Exception {
        Errand errand = node();
        ScheduleInfo before = errand.schedules().find("nightly").orElseThrow();

        Enqueued run = errand.schedules().runNow("nightly").orElseThrow();

        assertThat(run.created()).isTrue();
        Task task = task(errand, run.id());
        assertThat(task.kind()).isEqualTo("tick");
        assertThat(task.queue()).isEqualTo("reports");
        assertThat(task.payloadJson()).contains("by hand");
        assertThat(task.maxAttempts()).as("the kind's maximum attempts").isEqualTo(7);
        assertThat(task.state()).isEqualTo(TaskState.PENDING);
        assertThat(task.runAt()).as("due now").isBeforeOrEqualTo(databaseNow().plus(clock.offset()));
        assertThat(task.uniqueKey()).startsWith("schedule-now:nightly@");
        ScheduleInfo after = errand.schedules().find("nightly").orElseThrow();
        assertThat(after.nextRunAt()).isEqualTo(before.nextRunAt());
        assertThat(after.lastRunAt()).isEqualTo(before.lastRunAt());

        errand.start();
        await().atMost(Duration.ofSeconds(15)).until(() -> notes.contains("by hand"));
        assertThat(notes).as("no slot fired: the next is hours away").containsExactly("by hand");
    }

    @Test
    void aDoubleClickInTheSameSecondWritesOneTask() throws Exception {
        Errand errand = node();
        // Two calls a few milliseconds apart may still fall on either side of a second: then each wrote its own
        // task, under its own second's key. Tried until a pair falls in one second.
        // A try's first call may also fall in the second of the try before it: count the distinct tasks written.
        java.util.Set<Long> written = new java.util.HashSet<>();
        for (int tries = 0; tries < 5; tries++) {
            Enqueued first = errand.schedules().runNow("nightly").orElseThrow();
            Enqueued second = errand.schedules().runNow("nightly").orElseThrow();
            written.add(first.id());
            written.add(second.id());
            if (second.deduplicated()) {
                assertThat(second.id()).isEqualTo(first.id());
                assertThat(tasksIn(TaskState.PENDING)).isEqualTo(written.size());
                return;
            }
            assertThat(task(errand, second.id()).uniqueKey())
                    .as("a second task only in another second")
                    .isNotEqualTo(task(errand, first.id()).uniqueKey());
        }
        throw new AssertionError("five pairs of calls never fell in the same second");
    }

    @Test
    void aPausedScheduleRunsByHandAndStaysPaused() throws Exception {
        Errand errand = node();
        assertThat(errand.schedules().pause("nightly")).isTrue();

        Enqueued run = errand.schedules().runNow("nightly").orElseThrow();
        errand.start();

        await().atMost(Duration.ofSeconds(15)).until(() -> notes.contains("by hand"));
        assertThat(run.created()).isTrue();
        assertThat(errand.schedules().find("nightly").orElseThrow().paused()).isTrue();
    }

    @Test
    void anUnknownNameRunsNothingAndBadNamesAreRefused() throws Exception {
        Errand errand = node();

        assertThat(errand.schedules().runNow("no-such-schedule")).isEmpty();
        assertThat(errand.schedules().runNow("nightly\0")).isEmpty();
        assertThatThrownBy(() -> errand.schedules().runNow(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be null");
        assertThatThrownBy(() -> errand.schedules().runNow("x".repeat(Schedule.MAX_NAME_LENGTH + 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most " + Schedule.MAX_NAME_LENGTH);
        assertThat(taskRows()).as("only the slot written ahead, if any").isLessThanOrEqualTo(1);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE unique_key LIKE 'schedule-now:%'"))
                .isZero();
    }
}
