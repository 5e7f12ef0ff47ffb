package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.admin.Page;
import dev.errand.admin.PageRequest;
import dev.errand.admin.TaskQuery;
import dev.errand.enqueue.Enqueued;
import dev.errand.enqueue.TaskRequest;
import dev.errand.history.Attempt;
import dev.errand.history.AttemptQuery;
import dev.errand.task.Task;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** A {@link PageRequest} pages the task list and the attempt history as their offset and limit do. */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class PagingContractTest extends ErrandTestSupport {

    PagingContractTest(Target target) {
        super(target);
    }

    @Test
    void theTaskListAndTheHistoryReadTheRequestedPage() {
        Errand errand = node(builder()
                .historyEnabled(true)
                .register(TaskDefinition.builder("step", Integer.class, (n, ctx) -> {})
                        .build()));
        List<TaskRequest> requests = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            requests.add(TaskRequest.of("step", i));
        }
        List<Long> ids = errand.enqueueAll(requests).stream().map(Enqueued::id).toList();

        Page<Task> last = errand.admin()
                .list(TaskQuery.builder().page(PageRequest.of(20, 10)).build());
        assertThat(last.items()).extracting(Task::id).containsExactlyElementsOf(ids.subList(20, 25));
        assertThat(last.total()).isEqualTo(25);
        assertThat(last.offset()).isEqualTo(20);
        assertThat(last.limit()).isEqualTo(10);
        assertThat(last.hasNext()).isFalse();
        assertThat(errand.admin()
                        .list(TaskQuery.builder().page(PageRequest.of(5, 10)).build())
                        .items())
                .extracting(Task::id)
                .containsExactlyElementsOf(ids.subList(5, 15));

        errand.start();
        await().atMost(Duration.ofSeconds(20))
                .until(() ->
                        errand.history().search(AttemptQuery.builder().build()).total() == 25);
        Page<Attempt> newest = errand.history().search(AttemptQuery.builder().build());
        Page<Attempt> second = errand.history()
                .search(AttemptQuery.builder().page(PageRequest.of(10, 10)).build());
        Page<Attempt> byParts = errand.history()
                .search(AttemptQuery.builder().offset(10).limit(10).build());
        assertThat(newest.items()).hasSize(25);
        assertThat(second.items())
                .extracting(Attempt::taskId)
                .containsExactlyElementsOf(newest.items().subList(10, 20).stream()
                        .map(Attempt::taskId)
                        .toList())
                .containsExactlyElementsOf(
                        byParts.items().stream().map(Attempt::taskId).toList());
        assertThat(second.hasNext()).isTrue();
        assertThat(newest.totalExact()).isTrue();

        // A bounded total: exact up to the bound, a lower bound past it, and always far enough to page on.
        Page<Attempt> bounded = errand.history()
                .search(AttemptQuery.builder().limit(5).countUpTo(10).build());
        assertThat(bounded.items()).hasSize(5);
        assertThat(bounded.total()).isEqualTo(11);
        assertThat(bounded.totalExact()).isFalse();
        assertThat(bounded.hasNext()).isTrue();
        Page<Attempt> pastTheBound = errand.history()
                .search(AttemptQuery.builder().offset(20).limit(5).countUpTo(10).build());
        assertThat(pastTheBound.items()).hasSize(5);
        assertThat(pastTheBound.total()).isEqualTo(25);
        assertThat(pastTheBound.totalExact()).isTrue();
        assertThat(pastTheBound.hasNext()).isFalse();
        Page<Attempt> aboveAll =
                errand.history().search(AttemptQuery.builder().countUpTo(100).build());
        assertThat(aboveAll.total()).isEqualTo(25);
        assertThat(aboveAll.totalExact()).isTrue();
        assertThatThrownBy(() -> AttemptQuery.builder().countUpTo(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("countUpTo must be 0 (count every match) to 10000000");
        assertThatThrownBy(() -> AttemptQuery.builder().countUpTo(10_000_001)).hasMessageContaining("got 10000001");
    }
}
