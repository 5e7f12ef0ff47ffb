package dev.errand.console.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.admin.TaskAdmin;
import dev.errand.admin.TaskCountsSnapshot;
import dev.errand.console.testing.ConsoleTestApp;
import dev.errand.console.testing.RunningApp;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.TaskState;
import dev.errand.testkit.TestDatabase;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The overview's counts on a real node and table: a fast count is repeated once its short allowed age has passed;
 * a slow one runs on a thread of its own while the page shows the previous counts, marked as being counted again.
 * The slowness is added around the real admin API (a table of a million rows is what makes a count slow); the
 * counts themselves come from the database.
 */
class OverviewCountsTest {

    private static final Duration SLOW = Duration.ofMillis(150);

    @Test
    void aFastCountIsRepeatedAndASlowOneRunsInTheBackgroundWhileThePreviousCountsShow() {
        try (RunningApp app = RunningApp.start(TestDatabase.H2, "errand.processing-enabled=false")) {
            SlowedAdmin slowed = new SlowedAdmin(app.errand().admin());
            OverviewCounts overview = new OverviewCounts(slowed.proxy(), Duration.ofMinutes(1), Duration.ofSeconds(1));
            enqueue(app, 2);

            OverviewCounts.Shown first = overview.get();
            assertThat(first.snapshot().counts().byState()).containsEntry(TaskState.PENDING, 2L);
            assertThat(first.recounting()).isFalse();

            // A count of a small table takes milliseconds and may age 50 times that: new tasks show at once.
            enqueue(app, 1);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                            overview.get().snapshot().counts().byState())
                    .containsEntry(TaskState.PENDING, 3L));

            // Counts now take 150 ms: they may age 7.5 s, capped by the maximum age of 1 s here.
            slowed.slow = true;
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(overview.get().snapshot().countDuration())
                            .isGreaterThanOrEqualTo(SLOW));
            int counted = slowed.calls.get();
            enqueue(app, 1);
            assertThat(overview.get().snapshot().counts().byState()).containsEntry(TaskState.PENDING, 3L);
            assertThat(slowed.calls.get()).isEqualTo(counted);

            // Past the maximum age, a read starts the next count in the background and shows the previous counts.
            slowed.gate = new CountDownLatch(1);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                long started = System.nanoTime();
                OverviewCounts.Shown shown = overview.get();
                assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(SLOW);
                assertThat(shown.recounting()).isTrue();
                assertThat(shown.snapshot().counts().byState()).containsEntry(TaskState.PENDING, 3L);
                assertThat(shown.age()).isGreaterThan(Duration.ofSeconds(1));
            });
            slowed.gate.countDown();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                            overview.get().snapshot().counts().byState())
                    .containsEntry(TaskState.PENDING, 4L));
            assertThat(slowed.calls.get()).isEqualTo(counted + 1);
        }
    }

    private static void enqueue(RunningApp app, int tasks) {
        for (int i = 0; i < tasks; i++) {
            app.errand().enqueue(TaskRequest.of(ConsoleTestApp.WORK, Map.of()));
        }
    }

    /** The real admin API, whose counts take 150 ms more when {@code slow}, and wait for {@code gate} if set. */
    private static final class SlowedAdmin {
        private final TaskAdmin real;
        final AtomicInteger calls = new AtomicInteger();
        volatile boolean slow;
        volatile CountDownLatch gate;

        SlowedAdmin(TaskAdmin real) {
            this.real = real;
        }

        TaskAdmin proxy() {
            return (TaskAdmin) Proxy.newProxyInstance(
                    TaskAdmin.class.getClassLoader(), new Class<?>[] {TaskAdmin.class}, (proxy, method, args) -> {
                        Object result;
                        try {
                            result = method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                        if (!method.getName().equals("countsSnapshot") || !slow) {
                            return result;
                        }
                        calls.incrementAndGet();
                        CountDownLatch waitFor = gate;
                        if (waitFor != null) {
                            waitFor.await(30, TimeUnit.SECONDS);
                        }
                        TaskCountsSnapshot snapshot = (TaskCountsSnapshot) result;
                        return new TaskCountsSnapshot(
                                snapshot.counts(),
                                snapshot.countDuration().plus(SLOW),
                                snapshot.readAt(),
                                snapshot.recounting());
                    });
        }
    }
}
