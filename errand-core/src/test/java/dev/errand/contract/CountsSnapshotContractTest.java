package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.Errand;
import dev.errand.admin.TaskCountsSnapshot;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The stored task counts ({@code TaskAdmin.countsSnapshot}): reused while young enough, counted again when older,
 * shared by every node, never counted by two callers at once, and a claim left by a dead counter taken over. On
 * every database, with the test clock moving time.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class CountsSnapshotContractTest extends ErrandTestSupport {

    private static final Duration OVERDUE = Duration.ofMinutes(1);
    private static final Duration MAX_AGE = Duration.ofSeconds(30);

    CountsSnapshotContractTest(Target target) {
        super(target);
    }

    @Test
    void aYoungSnapshotIsReusedByEveryNodeAndAnOldOneIsCountedAgain() throws Exception {
        Errand first = adminNode("first");
        Errand second = adminNode("second");
        enqueue(first, 3);

        TaskCountsSnapshot counted = first.admin().countsSnapshot(OVERDUE, MAX_AGE);
        assertThat(counted.counts().byState()).containsEntry(TaskState.PENDING, 3L);
        assertThat(counted.recounting()).isFalse();
        assertThat(counted.age()).isLessThan(Duration.ofSeconds(5));
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "count_snapshot")).isEqualTo(1);

        enqueue(first, 2);
        TaskCountsSnapshot reused = second.admin().countsSnapshot(OVERDUE, MAX_AGE);
        assertThat(reused.countedAt()).isEqualTo(counted.countedAt());
        assertThat(reused.counts().byState()).containsEntry(TaskState.PENDING, 3L);
        assertThat(reused.counts().counts()).isEqualTo(counted.counts().counts());
        assertThat(reused.recounting()).isFalse();
        assertThat(reused.countDuration()).isEqualTo(counted.countDuration()).isPositive();

        clock.advance(Duration.ofSeconds(31));
        TaskCountsSnapshot recounted = second.admin().countsSnapshot(OVERDUE, MAX_AGE);
        assertThat(recounted.counts().byState()).containsEntry(TaskState.PENDING, 5L);
        assertThat(recounted.countedAt()).isAfter(counted.countedAt().plusSeconds(30));
        assertThat(recounted.age()).isLessThan(Duration.ofSeconds(5));
        assertThat(first.admin().countsSnapshot(OVERDUE, MAX_AGE).countedAt()).isEqualTo(recounted.countedAt());
    }

    @Test
    void theStoredCountsKeepEveryFieldOfTheCount() {
        Errand node = adminNode("node");
        enqueue(node, 2);
        node.enqueue(TaskRequest.of("digest", 9));
        clock.advance(Duration.ofMinutes(3));

        var counted = node.admin().countsSnapshot(OVERDUE, MAX_AGE).counts();
        var stored = node.admin().countsSnapshot(OVERDUE, MAX_AGE).counts();
        assertThat(stored.counts()).hasSize(2);
        assertThat(stored.counts()).isEqualTo(counted.counts());
        assertThat(stored.leaseOwners()).isEqualTo(counted.leaseOwners());
        assertThat(stored.counts()).allSatisfy(count -> {
            assertThat(count.due()).isEqualTo(count.count());
            assertThat(count.overdue()).isEqualTo(count.count());
            assertThat(count.oldestDueLag()).isGreaterThanOrEqualTo(Duration.ofMinutes(2));
        });
    }

    @Test
    void zeroMaxAgeCountsOnEveryCallAndEachOverdueAgeHasASnapshotOfItsOwn() throws Exception {
        Errand node = adminNode("node");
        enqueue(node, 1);
        assertThat(node.admin().countsSnapshot(OVERDUE, Duration.ZERO).counts().byState())
                .containsEntry(TaskState.PENDING, 1L);
        enqueue(node, 1);
        assertThat(node.admin().countsSnapshot(OVERDUE, Duration.ZERO).counts().byState())
                .containsEntry(TaskState.PENDING, 2L);
        node.admin().countsSnapshot(Duration.ofMinutes(5), MAX_AGE);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "count_snapshot")).isEqualTo(2);
    }

    @Test
    void whileAnotherCallerCountsTheStoredCountsAreReturnedAndAnAbandonedCountIsTakenOver() throws Exception {
        Errand node = adminNode("node");
        enqueue(node, 1);
        TaskCountsSnapshot first = node.admin().countsSnapshot(OVERDUE, MAX_AGE);
        enqueue(node, 1);
        // Another node claimed the count when the snapshot was written, and is still counting (or died).
        execute("UPDATE " + prefix + "count_snapshot SET counting_since = counted_at");

        clock.advance(Duration.ofMinutes(2));
        TaskCountsSnapshot stale = node.admin().countsSnapshot(OVERDUE, MAX_AGE);
        assertThat(stale.recounting()).isTrue();
        assertThat(stale.countedAt()).isEqualTo(first.countedAt());
        assertThat(stale.counts().byState()).containsEntry(TaskState.PENDING, 1L);
        assertThat(stale.age()).isBetween(Duration.ofMinutes(2), Duration.ofMinutes(3));

        clock.advance(Duration.ofMinutes(4));
        TaskCountsSnapshot takenOver = node.admin().countsSnapshot(OVERDUE, MAX_AGE);
        assertThat(takenOver.recounting()).isFalse();
        assertThat(takenOver.counts().byState()).containsEntry(TaskState.PENDING, 2L);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "count_snapshot WHERE counting_since IS NULL"))
                .isEqualTo(1);
    }

    @Test
    void whileTheFirstCountRunsElsewhereACallerCountsWithoutStoring() throws Exception {
        Errand node = adminNode("node");
        enqueue(node, 4);
        node.admin().countsSnapshot(OVERDUE, MAX_AGE);
        // Another node has claimed the first count of the five-minute snapshot and not written it yet.
        execute("INSERT INTO " + prefix + "count_snapshot (name, counting_since) SELECT 'tasks/PT5M', counted_at FROM "
                + prefix + "count_snapshot WHERE name = 'tasks/PT1M'");

        TaskCountsSnapshot counted = node.admin().countsSnapshot(Duration.ofMinutes(5), MAX_AGE);
        assertThat(counted.recounting()).isTrue();
        assertThat(counted.counts().byState()).containsEntry(TaskState.PENDING, 4L);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "count_snapshot WHERE body IS NULL"))
                .isEqualTo(1);
    }

    @Test
    void badAgesAreRefusedWithWhatToDo() {
        Errand node = adminNode("node");
        assertThatThrownBy(() -> node.admin().countsSnapshot(OVERDUE, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxAge must be zero or more");
        assertThatThrownBy(() -> node.admin().countsSnapshot(OVERDUE, Duration.ofSeconds(-1)))
                .hasMessageContaining("maxAge must be zero or more");
        assertThatThrownBy(() -> node.admin().countsSnapshot(OVERDUE, Duration.ofDays(36_501)))
                .hasMessageContaining("36500");
        assertThatThrownBy(() -> node.admin().countsSnapshot(null, MAX_AGE))
                .hasMessageContaining("overdueAfter must be zero or more");
    }

    private Errand adminNode(String id) {
        return node(builder()
                .nodeId(id)
                .processingEnabled(false)
                .register(TaskDefinition.builder("report", Integer.class, (n, ctx) -> {})
                        .build())
                .register(TaskDefinition.builder("digest", Integer.class, (n, ctx) -> {})
                        .build()));
    }

    private static void enqueue(Errand node, int tasks) {
        for (int i = 0; i < tasks; i++) {
            node.enqueue(TaskRequest.of("report", i));
        }
    }

    private void execute(String sql) throws Exception {
        try (var c = dataSource().getConnection();
                var s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }
}
