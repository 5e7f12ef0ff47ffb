package dev.errand.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.Errand;
import dev.errand.admin.TaskAdmin;
import dev.errand.admin.TaskCounts;
import dev.errand.config.TimeLimits;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.TaskDefinition;
import dev.errand.testkit.TestDatabase;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The statistics with boundary durations, on every database: a cache of {@code FOREVER} reads once (it threw
 * {@code ArithmeticException} in the constructor), and an overdue threshold past the core's 36,500 days is
 * refused at construction, not at every scrape (it counted every due task as overdue on H2 and failed with
 * "timestamp out of range" on PostgreSQL).
 */
class TaskStatisticsBoundaryTest {

    static List<TestDatabase> databases() {
        return TestDatabase.selected();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void boundaryDurationsAreCachedOrRefusedNeverOverflowed(TestDatabase database) throws Exception {
        String prefix = TestDatabase.newPrefix();
        Errand errand = Errand.builder(database.dataSource())
                .tablePrefix(prefix)
                .register(TaskDefinition.builder("k", Integer.class, (n, ctx) -> {})
                        .build())
                .build();
        try {
            errand.enqueue(TaskRequest.builder("k", 1)
                    .runAt(database.now().minusSeconds(3600))
                    .build());
            AtomicInteger reads = new AtomicInteger();
            TaskAdmin counted = counting(errand.admin(), reads);

            TaskStatistics forever =
                    new TaskStatistics(counted, ChronoUnit.FOREVER.getDuration(), Duration.ofMinutes(5));
            assertThat(overdue(forever.overview())).isEqualTo(1);
            assertThat(overdue(forever.overview())).isEqualTo(1);
            assertThat(reads).as("a cache of FOREVER reads once").hasValue(1);

            TaskStatistics century = new TaskStatistics(counted, Duration.ZERO, TimeLimits.MAX_DURATION);
            assertThat(overdue(century.overview())).isZero();
            assertThat(century.load().overdue()).isZero();
            assertThat(century.load().queue("default").due()).isEqualTo(1);

            for (Duration bad : List.of(
                    ChronoUnit.FOREVER.getDuration(),
                    TimeLimits.MAX_DURATION.plusNanos(1),
                    Duration.ofDays(365L * 300))) {
                assertThatThrownBy(() -> new TaskStatistics(counted, Duration.ZERO, bad))
                        .as(bad.toString())
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("overdueAfter")
                        .hasMessageContaining("36500 days");
            }
            assertThatThrownBy(() -> new TaskStatistics(counted, Duration.ofNanos(-1), Duration.ZERO))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cacheDuration");
        } finally {
            errand.stop();
            database.dropTables(prefix);
        }
    }

    private static long overdue(TaskCounts counts) {
        return counts.counts().stream().mapToLong(TaskCounts.Count::overdue).sum();
    }

    /** The node's admin API, counting the reads of the statistics. */
    private static TaskAdmin counting(TaskAdmin admin, AtomicInteger reads) {
        return (TaskAdmin) Proxy.newProxyInstance(
                TaskAdmin.class.getClassLoader(), new Class<?>[] {TaskAdmin.class}, (proxy, method, args) -> {
                    if (method.getName().equals("counts")) {
                        reads.incrementAndGet();
                    }
                    try {
                        return method.invoke(admin, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
