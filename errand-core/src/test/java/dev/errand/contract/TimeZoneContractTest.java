package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TimeZone;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Time zones: with the JVM in America/New_York, tasks scheduled across daylight-saving changes keep
 * their exact instants and run at the right one. The hour after 2027-11-07T06:00Z repeats in New York
 * local time, and the hour after 2027-03-14T07:00Z does not exist there; a conversion through local
 * time would merge or shift these tasks.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class TimeZoneContractTest extends ErrandTestSupport {

    private static final Instant FALL_BACK = Instant.parse("2027-11-07T06:00:00Z");
    private static final Instant SPRING_FORWARD = Instant.parse("2027-03-14T07:00:00Z");

    private TimeZone original;
    private HikariDataSource zoned;

    TimeZoneContractTest(Target target) {
        super(target);
    }

    @BeforeEach
    void moveTheJvmOutOfUtc() {
        original = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("America/New_York"));
        // Fresh connections, made while the JVM is in New York, in case a driver reads the zone at connect.
        zoned = database.newDataSource();
    }

    @AfterEach
    void restoreTheJvmZone() {
        zoned.close();
        TimeZone.setDefault(original);
    }

    @Test
    void instantsAcrossDaylightSavingChangesRoundTripExactly() throws Exception {
        Errand errand = node(builder(zoned));
        for (Instant change : List.of(FALL_BACK, SPRING_FORWARD)) {
            for (long minutes : new long[] {-45, -15, 15, 45}) {
                Instant at = change.plus(Duration.ofMinutes(minutes)).plusNanos(123_456_000);
                long id = errand.enqueue(
                                TaskRequest.builder("tz", minutes).runAt(at).build())
                        .id();
                assertThat(task(errand, id).runAt())
                        .as("run_at of a task at %s", at)
                        .isEqualTo(at);
            }
        }
    }

    @Test
    void tasksAroundTheRepeatedHourRunAtTheirInstant() throws Exception {
        List<Long> ran = Collections.synchronizedList(new ArrayList<>());
        Errand errand = node(builder(zoned)
                .register(TaskDefinition.builder("tz", Long.class, (minutes, ctx) -> ran.add(minutes))
                        .build()));
        for (long minutes : new long[] {45, -15, 15, -45}) {
            errand.enqueue(TaskRequest.builder("tz", minutes)
                    .runAt(FALL_BACK.plus(Duration.ofMinutes(minutes)))
                    .build());
        }
        // Move the database clock to the change itself.
        clock.advance(Duration.between(databaseNow(), FALL_BACK));
        errand.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> ran.size() == 2);
        Thread.sleep(300); // the point: no other run in this time
        assertThat(ran).containsExactlyInAnyOrder(-45L, -15L);
        clock.advance(Duration.ofMinutes(30));
        await().atMost(Duration.ofSeconds(10)).until(() -> ran.size() == 3);
        Thread.sleep(300); // the point: no other run in this time
        assertThat(ran).hasSize(3).contains(15L);
        clock.advance(Duration.ofMinutes(30));
        await().atMost(Duration.ofSeconds(10)).until(() -> ran.size() == 4);
        assertThat(ran).containsExactlyInAnyOrder(-45L, -15L, 15L, 45L);
    }
}
