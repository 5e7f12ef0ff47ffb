package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.Errand;
import dev.errand.admin.BulkCount;
import dev.errand.admin.BulkOptions;
import dev.errand.admin.BulkResult;
import dev.errand.admin.TaskAdmin;
import dev.errand.admin.TaskQuery;
import dev.errand.batch.BatchProgress;
import dev.errand.batch.BatchRequest;
import dev.errand.enqueue.Enqueued;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.Task;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bulk actions on a filter: set-based in chunks of one transaction each, bounded by {@code upToId} and
 * {@code atMost}, skipping rows locked elsewhere, with the one-task actions' bookkeeping (batch counters).
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class BulkActionContractTest extends ErrandTestSupport {

    BulkActionContractTest(Target target) {
        super(target);
    }

    private List<Long> enqueue(Errand errand, int count, String kind) {
        List<TaskRequest> requests = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            requests.add(TaskRequest.of(kind, i));
        }
        List<Long> ids = new ArrayList<>();
        for (int from = 0; from < count; from += 1_000) {
            errand.enqueueAll(requests.subList(from, Math.min(count, from + 1_000))).stream()
                    .map(Enqueued::id)
                    .forEach(ids::add);
        }
        return ids;
    }

    /** Fails every task of a kind, as its last attempt would. */
    private void failAll(String kind) throws SQLException {
        try (Connection c = dataSource().getConnection();
                PreparedStatement s = c.prepareStatement("UPDATE " + prefix + "task SET state = 'failed', attempt = 3,"
                        + " last_error = 'boom', finished_at = created_at WHERE kind = ?")) {
            s.setString(1, kind);
            s.executeUpdate();
        }
    }

    private long count(String kind, TaskState state) throws SQLException {
        return scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE kind = '" + kind + "' AND state = '"
                + state.dbValue() + "'");
    }

    @Test
    void retriesFiveThousandFailedTasksInChunks() throws SQLException {
        Errand errand = node(builder());
        TaskAdmin admin = errand.admin();
        enqueue(errand, 5_000, "flaky");
        enqueue(errand, 20, "other");
        failAll("flaky");
        failAll("other");
        TaskQuery filter =
                TaskQuery.builder().kind("flaky").state(TaskState.FAILED).build();

        BulkCount counted = admin.countForBulk(filter);
        assertThat(counted.count()).isEqualTo(5_000);
        BulkResult result = admin.retryAll(filter, BulkOptions.defaults().upToId(counted.highestId()));

        assertThat(result).isEqualTo(new BulkResult(5_000, 5_000, 0, 5));
        assertThat(count("flaky", TaskState.PENDING)).isEqualTo(5_000);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE kind = 'flaky' AND (attempt <> 0"
                        + " OR finished_at IS NOT NULL)"))
                .isZero();
        assertThat(count("other", TaskState.FAILED))
                .as("another kind's failed tasks stay")
                .isEqualTo(20);
        assertThat(admin.retryAll(filter, BulkOptions.defaults()))
                .as("nothing left to retry")
                .isEqualTo(new BulkResult(0, 0, 0, 0));
    }

    @Test
    void upToIdLeavesTasksAddedAfterTheCountAndAtMostCaps() throws SQLException {
        Errand errand = node(builder());
        TaskAdmin admin = errand.admin();
        enqueue(errand, 10, "counted");
        failAll("counted");
        TaskQuery filter = TaskQuery.builder().kind("counted").build();
        BulkCount confirmed = admin.countForBulk(filter);
        assertThat(confirmed.count()).isEqualTo(10);
        List<Long> later = enqueue(errand, 5, "counted");
        failAll("counted");

        BulkResult result = admin.retryAll(filter, BulkOptions.chunksOf(3).upToId(confirmed.highestId()));
        assertThat(result).isEqualTo(new BulkResult(10, 10, 0, 4));
        for (long id : later) {
            assertThat(admin.find(id).orElseThrow().state()).isEqualTo(TaskState.FAILED);
        }
        assertThat(admin.cancelAll(filter, BulkOptions.chunksOf(4).atMost(6))).isEqualTo(new BulkResult(6, 6, 0, 2));
        assertThat(count("counted", TaskState.CANCELLED)).isEqualTo(6);
    }

    @Test
    void progressIsReportedAfterEachCommittedChunkAndAThrowingListenerStopsTheRest() throws SQLException {
        Errand errand = node(builder());
        TaskAdmin admin = errand.admin();
        enqueue(errand, 10, "watched");
        failAll("watched");
        TaskQuery filter = TaskQuery.builder().kind("watched").build();
        List<BulkResult> seen = new ArrayList<>();
        List<Long> pendingWhenSeen = new ArrayList<>();
        BulkResult result = admin.retryAll(filter, BulkOptions.chunksOf(4).onProgress(done -> {
            seen.add(done);
            try {
                // Seen from another connection: what the listener is told has committed.
                pendingWhenSeen.add(count("watched", TaskState.PENDING));
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }));
        assertThat(result).isEqualTo(new BulkResult(10, 10, 0, 3));
        assertThat(seen)
                .containsExactly(new BulkResult(4, 4, 0, 1), new BulkResult(8, 8, 0, 2), new BulkResult(10, 10, 0, 3));
        assertThat(pendingWhenSeen).containsExactly(4L, 8L, 10L);

        // The ten are pending now: cancel them, stopped by the listener after the first chunk.
        assertThatThrownBy(() -> admin.cancelAll(filter, BulkOptions.chunksOf(3).onProgress(done -> {
                    throw new IllegalStateException("stop after the first chunk");
                })))
                .hasMessageContaining("stop after the first chunk");
        assertThat(count("watched", TaskState.CANCELLED))
                .as("the chunk that committed stays done, the rest is not done")
                .isEqualTo(3);
        assertThat(admin.cancelAll(filter, BulkOptions.defaults()))
                .as("running it again does the rest")
                .isEqualTo(new BulkResult(7, 7, 0, 1));
        assertThatThrownBy(() -> BulkOptions.defaults().onProgress(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("leave onProgress out");
    }

    @Test
    void aRowLockedElsewhereIsSkippedAndCounted() throws SQLException {
        Errand errand = node(builder());
        TaskAdmin admin = errand.admin();
        List<Long> ids = enqueue(errand, 5, "locked");
        failAll("locked");
        try (Connection worker = dataSource().getConnection()) {
            worker.setAutoCommit(false);
            try (PreparedStatement lock =
                    worker.prepareStatement("SELECT id FROM " + prefix + "task WHERE id = ? FOR UPDATE")) {
                lock.setLong(1, ids.get(2));
                lock.executeQuery().close();
            }
            BulkResult result =
                    admin.retryAll(TaskQuery.builder().kind("locked").build(), BulkOptions.defaults());
            assertThat(result).isEqualTo(new BulkResult(5, 4, 1, 1));
            worker.rollback();
        }
        assertThat(admin.find(ids.get(2)).orElseThrow().state()).isEqualTo(TaskState.FAILED);
        assertThat(count("locked", TaskState.PENDING)).isEqualTo(4);
    }

    @Test
    void cancelDeleteRescheduleAndPriorityKeepTheBookkeeping() throws SQLException {
        Errand errand = node(builder());
        TaskAdmin admin = errand.admin();
        List<TaskRequest> members = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            members.add(TaskRequest.of("member", i));
        }
        long batch = errand.enqueueBatch(BatchRequest.builder().addAll(members).build())
                .id();
        List<Long> loose = enqueue(errand, 6, "loose");

        Instant later = Instant.now().plus(1, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS);
        assertThat(admin.rescheduleAll(TaskQuery.builder().kind("loose").build(), later, BulkOptions.chunksOf(4)))
                .isEqualTo(new BulkResult(6, 6, 0, 2));
        assertThat(admin.find(loose.get(5)).orElseThrow().runAt()).isEqualTo(later);
        assertThat(admin.changePriority(TaskQuery.builder().kind("loose").build(), 2, BulkOptions.defaults()))
                .isEqualTo(new BulkResult(6, 6, 0, 1));
        assertThat(admin.find(loose.get(0)).orElseThrow().priority()).isEqualTo(2);
        assertThat(admin.changePriority(loose.get(0), 9)).isTrue();
        assertThat(admin.find(loose.get(0)).orElseThrow().priority()).isEqualTo(9);

        assertThat(admin.cancelAll(TaskQuery.builder().kind("member").build(), BulkOptions.chunksOf(3)))
                .isEqualTo(new BulkResult(4, 4, 0, 2));
        BatchProgress progress = errand.batches().progress(batch).orElseThrow();
        assertThat(progress.cancelled())
                .as("the batch counts its cancelled tasks")
                .isEqualTo(4);
        assertThat(progress.isFinished()).isTrue();
        assertThat(admin.changePriority(loose.get(0), 3)).isTrue();
        assertThat(admin.changePriority(
                        admin.list(TaskQuery.builder().kind("member").build())
                                .items()
                                .get(0)
                                .id(),
                        3))
                .as("a cancelled task keeps its priority")
                .isFalse();

        assertThat(admin.retryAll(TaskQuery.builder().kind("member").build(), BulkOptions.defaults())
                        .changed())
                .isEqualTo(4);
        assertThat(errand.batches().progress(batch).orElseThrow().cancelled())
                .as("retried members leave the batch's cancelled count")
                .isZero();

        assertThat(admin.deleteAll(TaskQuery.all(), BulkOptions.chunksOf(5))).isEqualTo(new BulkResult(10, 10, 0, 2));
        assertThat(taskRows()).isZero();
        assertThat(errand.batches().progress(batch).orElseThrow().cancelled())
                .as("deleted unfinished members count as cancelled, as delete(id) does")
                .isEqualTo(4);
        List<Task> none = admin.list(TaskQuery.all()).items();
        assertThat(none).isEmpty();
    }

    @Test
    void badArgumentsAreRefusedAndChangeNothing() throws SQLException {
        Errand errand = node(builder());
        TaskAdmin admin = errand.admin();
        enqueue(errand, 3, "kept");
        assertThatThrownBy(() -> BulkOptions.chunksOf(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 and 10000");
        assertThatThrownBy(() -> BulkOptions.chunksOf(10_001)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BulkOptions.defaults().atMost(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("atMost");
        assertThatThrownBy(() -> BulkOptions.defaults().upToId(-4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("upToId");
        assertThatThrownBy(() -> admin.retryAll(null, BulkOptions.defaults()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TaskQuery.all()");
        assertThatThrownBy(() -> admin.deleteAll(TaskQuery.all(), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("BulkOptions.defaults()");
        assertThatThrownBy(() -> admin.changePriority(TaskQuery.all(), 0, BulkOptions.defaults()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("priority");
        assertThatThrownBy(() -> admin.rescheduleAll(TaskQuery.all(), null, BulkOptions.defaults()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(count("kept", TaskState.PENDING)).isEqualTo(3);
    }
}
