package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.Errand;
import dev.errand.admin.KeysetPage;
import dev.errand.admin.TaskAdmin;
import dev.errand.admin.TaskCount;
import dev.errand.admin.TaskOrder;
import dev.errand.admin.TaskQuery;
import dev.errand.enqueue.Enqueued;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.Task;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The task list of {@link TaskAdmin}: filters combined, keyset pages in both orders without gaps or duplicates,
 * bounded counts with the estimate flagged, error text matched literally, bad arguments refused.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class TaskListContractTest extends ErrandTestSupport {

    TaskListContractTest(Target target) {
        super(target);
    }

    private List<Long> enqueue(Errand errand, int count, String kind, String queue) {
        List<TaskRequest> requests = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            requests.add(TaskRequest.builder(kind, i).queue(queue).build());
        }
        return errand.enqueueAll(requests).stream().map(Enqueued::id).toList();
    }

    /** Ends tasks as failed with this last error, on the database's clock. */
    private void fail(List<Long> ids, String error) throws SQLException {
        setState(ids, TaskState.FAILED, error, null);
    }

    private void setState(List<Long> ids, TaskState state, String error, String leaseOwner) throws SQLException {
        try (Connection c = dataSource().getConnection();
                PreparedStatement s = c.prepareStatement("UPDATE " + prefix + "task SET state = ?, last_error = ?,"
                        + " lease_owner = ?, finished_at = created_at WHERE id = ?")) {
            for (long id : ids) {
                s.setString(1, state.dbValue());
                s.setString(2, error);
                s.setString(3, leaseOwner);
                s.setLong(4, id);
                s.executeUpdate();
            }
        }
    }

    private static List<Long> ids(List<Task> tasks) {
        return tasks.stream().map(Task::id).toList();
    }

    @Test
    void filtersCombine() throws SQLException {
        Errand errand = node(builder().queue("one", 1).queue("two", 1));
        TaskAdmin admin = errand.admin();
        List<Long> aOne = enqueue(errand, 6, "a", "one");
        List<Long> aTwo = enqueue(errand, 4, "a", "two");
        List<Long> bOne = enqueue(errand, 5, "b", "one");
        fail(aOne.subList(0, 3), "Connection refused by smtp.example");
        fail(aOne.subList(3, 4), "Timeout");
        fail(aTwo.subList(0, 2), "Connection refused by smtp.example");
        fail(bOne.subList(0, 2), "Connection refused by smtp.example");
        setState(aOne.subList(4, 5), TaskState.CANCELLED, "Connection refused again", null);
        setState(aOne.subList(5, 6), TaskState.RUNNING, null, "node-7");
        setState(bOne.subList(2, 3), TaskState.RUNNING, null, "node-8");

        TaskQuery failedOrCancelledAOneRefused = TaskQuery.builder()
                .states(EnumSet.of(TaskState.FAILED, TaskState.CANCELLED))
                .kind("a")
                .queue("one")
                .errorContains("connection REFUSED")
                .build();
        List<Long> expected = List.of(aOne.get(0), aOne.get(1), aOne.get(2), aOne.get(4));
        assertThat(ids(admin.list(failedOrCancelledAOneRefused).items())).containsExactlyElementsOf(expected);
        assertThat(ids(admin.listKeyset(failedOrCancelledAOneRefused).items())).containsExactlyElementsOf(expected);
        assertThat(admin.count(failedOrCancelledAOneRefused)).isEqualTo(4);
        assertThat(admin.count(failedOrCancelledAOneRefused, 100)).isEqualTo(new TaskCount(4, true));
        assertThat(admin.countForBulk(failedOrCancelledAOneRefused).count()).isEqualTo(4);
        assertThat(admin.countForBulk(failedOrCancelledAOneRefused).highestId()).isEqualTo(aOne.get(4));

        assertThat(ids(admin.listKeyset(TaskQuery.builder().leaseOwner("node-7").build())
                        .items()))
                .containsExactly(aOne.get(5));
        assertThat(admin.count(TaskQuery.builder()
                        .state(TaskState.RUNNING)
                        .kind("b")
                        .leaseOwner("node-7")
                        .build()))
                .isZero();

        Instant now = databaseNow();
        Instant hourAgo = now.minus(Duration.ofHours(1));
        Instant inAnHour = now.plus(Duration.ofHours(1));
        assertThat(admin.count(
                        TaskQuery.builder().createdBetween(hourAgo, inAnHour).build()))
                .isEqualTo(15);
        assertThat(admin.count(
                        TaskQuery.builder().createdBetween(inAnHour, null).build()))
                .isZero();
        assertThat(admin.count(TaskQuery.builder().createdBetween(null, hourAgo).build()))
                .isZero();
        assertThat(admin.count(TaskQuery.builder()
                        .finishedBetween(hourAgo, null)
                        .kind("a")
                        .build()))
                .as("finished_at is set on a's failed and cancelled tasks and its running one")
                .isEqualTo(8);
        assertThat(admin.count(
                        TaskQuery.builder().runAtBetween(hourAgo, inAnHour).build()))
                .isEqualTo(15);
        assertThat(admin.count(TaskQuery.builder().runAtBetween(inAnHour, null).build()))
                .isZero();
    }

    @Test
    void keysetPagesWalkBothWaysInBothOrdersWithoutGapsOrDuplicates() {
        Errand errand = node(builder());
        TaskAdmin admin = errand.admin();
        List<Long> even = new ArrayList<>();
        for (int round = 0; round < 57; round++) {
            List<Long> ids = enqueue(errand, 1, round % 2 == 0 ? "even" : "odd", "default");
            if (round % 2 == 0) {
                even.addAll(ids);
            }
        }
        for (TaskOrder order : TaskOrder.values()) {
            List<Long> expected = new ArrayList<>(even);
            if (order == TaskOrder.ID_DESCENDING) {
                java.util.Collections.reverse(expected);
            }
            TaskQuery query =
                    TaskQuery.builder().kind("even").order(order).limit(7).build();
            List<Long> forward = new ArrayList<>();
            List<KeysetPage<Task>> pages = new ArrayList<>();
            KeysetPage<Task> page = admin.listKeyset(query);
            assertThat(page.hasPrevious()).isFalse();
            pages.add(page);
            forward.addAll(ids(page.items()));
            while (page.hasNext()) {
                query = query.next(page);
                page = admin.listKeyset(query);
                assertThat(page.items()).isNotEmpty();
                pages.add(page);
                forward.addAll(ids(page.items()));
            }
            assertThat(forward).as(order.name()).containsExactlyElementsOf(expected);
            assertThat(pages).hasSize(5); // 29 tasks, 7 a page

            List<Long> backward = new ArrayList<>(ids(page.items()));
            while (page.hasPrevious()) {
                query = query.previous(page);
                page = admin.listKeyset(query);
                assertThat(page.items()).hasSize(7);
                backward.addAll(0, ids(page.items()));
            }
            assertThat(backward).as(order.name() + " backwards").containsExactlyElementsOf(expected);
            assertThat(new LinkedHashSet<>(backward)).hasSameSizeAs(backward);
        }

        // An offset page takes the cursors as filters, for its items and its total alike.
        dev.errand.admin.Page<Task> offsetPage = admin.list(
                TaskQuery.builder().kind("even").after(even.get(9)).limit(5).build());
        assertThat(offsetPage.total()).isEqualTo(even.size() - 10);
        assertThat(ids(offsetPage.items())).containsExactlyElementsOf(even.subList(10, 15));
        assertThat(admin.count(
                        TaskQuery.builder().kind("even").after(even.get(9)).build()))
                .as("count(query) ignores the cursors")
                .isEqualTo(even.size());

        // A page past the end is empty, and its previous cursor leads back to the last matches.
        long last = even.get(even.size() - 1);
        TaskQuery past = TaskQuery.builder().kind("even").after(last).limit(3).build();
        KeysetPage<Task> empty = admin.listKeyset(past);
        assertThat(empty.items()).isEmpty();
        assertThat(empty.hasNext()).isFalse();
        assertThat(ids(admin.listKeyset(past.previous(empty)).items()))
                .containsExactlyElementsOf(even.subList(even.size() - 3, even.size()));
    }

    @Test
    void countsExactlyUpToTheLimitAndFlagsTheEstimateAbove() {
        Errand errand = node(builder());
        TaskAdmin admin = errand.admin();
        enqueue(errand, 30, "counted", "default");
        enqueue(errand, 3, "few", "default");

        assertThat(admin.count(TaskQuery.all(), 100)).isEqualTo(new TaskCount(33, true));
        assertThat(admin.count(TaskQuery.builder().kind("few").build(), 10)).isEqualTo(new TaskCount(3, true));
        assertThat(admin.count(TaskQuery.builder().kind("few").build(), 3)).isEqualTo(new TaskCount(3, true));
        TaskCount bounded = admin.count(TaskQuery.all(), 10);
        if (database == TestDatabase.H2 || database == TestDatabase.H2_UNPOOLED) {
            assertThat(bounded).as("H2 has no estimate and counts").isEqualTo(new TaskCount(33, true));
        } else {
            assertThat(bounded.exact())
                    .as("above the limit the planner's estimate, flagged")
                    .isFalse();
            assertThat(bounded.count()).isGreaterThan(10);
        }
    }

    @Test
    void errorTextIsMatchedLiterallyNeverAsAPattern() throws SQLException {
        Errand errand = node(builder());
        TaskAdmin admin = errand.admin();
        List<Long> ids = enqueue(errand, 7, "hostile", "default");
        String[] errors = {"100% done", "a_b", "back\\slash", "bang!", "plain text", "it's 'quoted'", "percent 100 done"
        };
        for (int i = 0; i < errors.length; i++) {
            fail(List.of(ids.get(i)), errors[i]);
        }
        assertThat(matching(admin, "%")).containsExactly(ids.get(0));
        assertThat(matching(admin, "0% d")).containsExactly(ids.get(0));
        assertThat(matching(admin, "_")).containsExactly(ids.get(1));
        assertThat(matching(admin, "\\")).containsExactly(ids.get(2));
        assertThat(matching(admin, "!")).containsExactly(ids.get(3));
        assertThat(matching(admin, "PLAIN")).containsExactly(ids.get(4));
        assertThat(matching(admin, "'quoted'")).containsExactly(ids.get(5));
        assertThat(matching(admin, "%' OR '1'='1")).isEmpty();
        assertThat(matching(admin, "'; DROP TABLE " + prefix + "task; --")).isEmpty();
        assertThat(admin.count(TaskQuery.all())).isEqualTo(7);
    }

    @Test
    void finishedWithinKeepsEndedTasksOfTheRecentPastOnTheDatabaseClock() throws SQLException {
        Errand errand = node(builder());
        TaskAdmin admin = errand.admin();
        List<Long> old = enqueue(errand, 2, "timed", "default");
        fail(old.subList(0, 1), "gateway timeout, old");
        setState(old.subList(1, 2), TaskState.CANCELLED, null, null);
        try (Connection c = dataSource().getConnection();
                PreparedStatement s = c.prepareStatement("UPDATE " + prefix
                        + "task SET finished_at = created_at - INTERVAL '2' HOUR WHERE kind = 'timed'")) {
            s.executeUpdate();
        }
        List<Long> recent = enqueue(errand, 3, "timed", "default");
        fail(recent.subList(0, 1), "gateway timeout, recent");
        setState(recent.subList(1, 2), TaskState.SUCCEEDED, null, null);
        // A task that failed an attempt and waits for its retry has an error but has not ended.
        try (Connection c = dataSource().getConnection();
                PreparedStatement s =
                        c.prepareStatement("UPDATE " + prefix + "task SET last_error = ?, attempt = 1 WHERE id = ?")) {
            s.setString(1, "gateway timeout, retrying");
            s.setLong(2, recent.get(2));
            s.executeUpdate();
        }

        TaskQuery lastHour =
                TaskQuery.builder().finishedWithin(Duration.ofHours(1)).build();
        assertThat(ids(admin.listKeyset(lastHour).items())).containsExactly(recent.get(0), recent.get(1));
        assertThat(admin.count(lastHour)).isEqualTo(2);
        TaskQuery errorLastHour = lastHour.toBuilder().errorContains("gateway").build();
        assertThat(ids(admin.listKeyset(errorLastHour).items())).containsExactly(recent.get(0));
        assertThat(admin.count(errorLastHour)).isEqualTo(1);
        assertThat(admin.countForBulk(errorLastHour).count()).isEqualTo(1);
        assertThat(ids(admin.listKeyset(errorLastHour.toBuilder()
                                .finishedWithin(Duration.ofHours(3))
                                .build())
                        .items()))
                .containsExactly(old.get(0), recent.get(0));
        assertThat(ids(admin.listKeyset(
                                TaskQuery.builder().errorContains("gateway").build())
                        .items()))
                .as("without a window every state, ended or not")
                .containsExactly(old.get(0), recent.get(0), recent.get(2));
        assertThat(ids(admin.listKeyset(lastHour.toBuilder()
                                .states(EnumSet.of(TaskState.FAILED, TaskState.PENDING))
                                .build())
                        .items()))
                .as("the window keeps the ended states of a state filter")
                .containsExactly(recent.get(0));
        TaskQuery pendingLastHour =
                lastHour.toBuilder().state(TaskState.PENDING).build();
        assertThat(admin.listKeyset(pendingLastHour).items())
                .as("no pending task has ended")
                .isEmpty();
        assertThat(admin.count(pendingLastHour)).isZero();

        assertThatThrownBy(() -> TaskQuery.builder().finishedWithin(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("finishedWithin must be a positive duration");
        assertThatThrownBy(() -> TaskQuery.builder().finishedWithin(Duration.ofMinutes(-5)))
                .hasMessageContaining("finishedWithin must be a positive duration");
        assertThatThrownBy(() -> TaskQuery.builder().finishedWithin(null))
                .hasMessageContaining("finishedWithin must be a positive duration");
        assertThatThrownBy(() -> TaskQuery.builder().finishedWithin(Duration.ofDays(36_501)))
                .hasMessageContaining("36500");
    }

    private static List<Long> matching(TaskAdmin admin, String text) {
        TaskQuery query = TaskQuery.builder().errorContains(text).build();
        List<Long> listed = ids(admin.listKeyset(query).items());
        assertThat(admin.count(query)).isEqualTo(listed.size());
        return listed;
    }

    @Test
    void badArgumentsAreRefusedWithWhatIsAccepted() {
        Errand errand = node(builder());
        TaskAdmin admin = errand.admin();
        assertThatThrownBy(() -> TaskQuery.builder().errorContains(""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 to 200 characters");
        assertThatThrownBy(() -> TaskQuery.builder().errorContains("x".repeat(201)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 to 200 characters");
        assertThatThrownBy(() -> TaskQuery.builder().states(Set.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("non-empty");
        assertThatThrownBy(() -> TaskQuery.builder().after(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("after must be 0 or a task id");
        assertThatThrownBy(() -> TaskQuery.builder().before(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("before must be a task id");
        assertThatThrownBy(() -> TaskQuery.builder().after(5).offset(10).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("offset or by after/before");
        Instant now = Instant.parse("2026-11-28T00:00:00Z");
        assertThatThrownBy(() -> TaskQuery.builder().createdBetween(now, now))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[from, before)");
        assertThatThrownBy(() -> TaskQuery.builder().finishedBetween(null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one end");
        assertThatThrownBy(() -> admin.listKeyset(TaskQuery.builder().offset(3).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not by offset");
        assertThatThrownBy(() -> admin.listKeyset(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> admin.count(TaskQuery.all(), -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 0 and 10000000");
        assertThatThrownBy(() -> admin.count(TaskQuery.all(), 10_000_001)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> admin.changePriority(1, 11))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 (runs first) and 10");
        assertThatThrownBy(() -> admin.changePriority(0, 5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("positive");
    }
}
