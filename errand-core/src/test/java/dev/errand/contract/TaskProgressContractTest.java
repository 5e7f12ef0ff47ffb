package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskKind;
import dev.errand.task.TaskProgress;
import dev.errand.testing.CountingDataSource;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Progress from a running handler, on every database: a transactional handler's report is visible to other
 * connections while its transaction is still open (it goes through a transaction and a table of its own, so it
 * neither waits for the task's locked row nor deadlocks with it), a tight loop of reports writes about one a
 * second plus the final value, the progress is gone once the task ends, and bad reports are refused.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class TaskProgressContractTest extends ErrandTestSupport {

    private static final TaskKind<Integer> IMPORT = TaskKind.of("import", Integer.class);

    TaskProgressContractTest(Target target) {
        super(target);
    }

    /** Progress statements that the node's worker threads sent. */
    private static long progressWrites(CountingDataSource db) {
        return db.transactions(thread -> thread.contains("-worker-")).stream()
                .flatMap(t -> t.statements().stream())
                .filter(sql -> sql.startsWith("UPDATE") && sql.contains("task_progress SET"))
                .count();
    }

    @Test
    void aTransactionalHandlersProgressIsVisibleWhileItsTransactionIsOpenThrottledAndClearedAtTheEnd()
            throws Exception {
        CountDownLatch reported = new CountDownLatch(1);
        CountDownLatch looped = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountingDataSource db = new CountingDataSource(dataSource());
        Errand errand = node(builder(db.dataSource())
                .register(TaskDefinition.builder(IMPORT, (n, ctx) -> {
                            recordEffect(ctx.connection(), ctx.taskId(), "importing");
                            ctx.progress(1, 10_000, "reading rows: données ✓ 数据");
                            reported.countDown();
                            hold(looped);
                            // A tight loop: the throttle lets about one write a second through, and the last.
                            for (int i = 2; i <= 10_000; i++) {
                                ctx.progress(i, 10_000, "row " + i);
                            }
                            reported.countDown();
                            hold(release);
                        })
                        .mode(ExecutionMode.TRANSACTIONAL)
                        .build()));
        errand.start();
        long id = errand.enqueue(TaskRequest.builder(IMPORT, 1).build()).id();
        assertThat(reported.await(20, TimeUnit.SECONDS)).isTrue();

        // Read on other connections while the task's transaction holds its row and its effect uncommitted.
        await().atMost(Duration.ofSeconds(10))
                .until(() -> errand.admin().progress(id).isPresent());
        TaskProgress first = errand.admin().progress(id).orElseThrow();
        assertThat(first.done()).isEqualTo(1);
        assertThat(first.total()).isEqualTo(10_000);
        assertThat(first.message()).isEqualTo("reading rows: données ✓ 数据");
        assertThat(first.attempt()).isEqualTo(1);
        assertThat(first.updatedAt()).isNotNull();
        assertThat(effects()).as("the handler's own write is not committed yet").isZero();

        db.clear();
        looped.countDown();
        await().atMost(Duration.ofSeconds(20))
                .until(() ->
                        errand.admin().progress(id).map(TaskProgress::complete).orElse(false));
        TaskProgress last = errand.admin().progress(id).orElseThrow();
        assertThat(last.done()).isEqualTo(10_000);
        assertThat(last.message()).isEqualTo("row 10000");
        assertThat(progressWrites(db))
                .as("9,999 reports in a tight loop: about one write a second, plus the final one")
                .isBetween(1L, 5L);

        release.countDown();
        await().atMost(Duration.ofSeconds(20)).until(() -> effects() == 1);
        assertThat(errand.admin().progress(id)).isEmpty();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task_progress"))
                .as("deleted in the transaction that ended the task")
                .isZero();
    }

    @Test
    void manyTransactionalHandlersReportProgressAtOnceWithoutBlockingEachOther() throws Exception {
        int tasks = 8;
        Errand errand = node(builder()
                .queue("default", tasks)
                .register(TaskDefinition.builder(IMPORT, (n, ctx) -> {
                            recordEffect(ctx.connection(), ctx.taskId(), "start");
                            for (int i = 1; i <= 200; i++) {
                                ctx.progress(i, 200, null);
                                if (i % 50 == 0) {
                                    recordEffect(ctx.connection(), ctx.taskId(), "step " + i);
                                }
                            }
                        })
                        .mode(ExecutionMode.TRANSACTIONAL)
                        .build()));
        errand.start();
        for (int i = 0; i < tasks * 4; i++) {
            errand.enqueue(TaskRequest.builder(IMPORT, i).build());
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> distinctEffects() == tasks * 4L && taskRows() == 0);
        assertThat(effects()).isEqualTo(tasks * 4L * 5);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task_progress")).isZero();
    }

    @Test
    void aNonTransactionalHandlersProgressIsClearedWithItsBatchedCompletion() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Errand errand = node(builder()
                .register(TaskDefinition.builder(IMPORT, (n, ctx) -> {
                            ctx.progress(3, 4, "almost");
                            hold(release);
                            recordEffect(ctx.taskId(), "done");
                        })
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
        errand.start();
        long id = errand.enqueue(TaskRequest.builder(IMPORT, 1).build()).id();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> errand.admin().progress(id).isPresent());
        assertThat(errand.admin().progress(id).orElseThrow().fraction()).isEqualTo(0.75);
        release.countDown();
        await().atMost(Duration.ofSeconds(20)).until(() -> taskRows() == 0);
        assertThat(errand.admin().progress(id)).isEmpty();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task_progress")).isZero();
    }

    @Test
    void tasksThatReportNoProgressCostNoProgressStatement() throws Exception {
        CountingDataSource db = new CountingDataSource(dataSource());
        Errand errand = node(builder(db.dataSource())
                .register(TaskDefinition.builder(IMPORT, (n, ctx) -> recordEffect(ctx.connection(), ctx.taskId(), "tx"))
                        .mode(ExecutionMode.TRANSACTIONAL)
                        .build())
                .register(
                        TaskDefinition.builder("plain", Integer.class, (n, ctx) -> recordEffect(ctx.taskId(), "plain"))
                                .mode(ExecutionMode.NON_TRANSACTIONAL)
                                .build()));
        errand.start();
        for (int i = 0; i < 20; i++) {
            errand.enqueue(TaskRequest.builder(IMPORT, i).build());
            errand.enqueue(TaskRequest.of("plain", i));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> effects() == 40 && taskRows() == 0);
        assertThat(db.transactions(thread -> true).stream()
                        .flatMap(t -> t.statements().stream())
                        .filter(sql -> !sql.startsWith("--") && !sql.startsWith("CREATE"))
                        .filter(sql -> sql.contains("task_progress")))
                .as("ending tasks that reported nothing deletes nothing")
                .isEmpty();
    }

    @Test
    void badReportsAreRefusedWithAClearMessage() throws Exception {
        List<Throwable> refusals = new CopyOnWriteArrayList<>();
        AtomicReference<TaskContext> kept = new AtomicReference<>();
        Errand errand = node(builder()
                .register(TaskDefinition.builder(IMPORT, (n, ctx) -> {
                            kept.set(ctx);
                            for (Runnable bad : List.<Runnable>of(
                                    () -> ctx.progress(-1, 10, null),
                                    () -> ctx.progress(11, 10, null),
                                    () -> ctx.progress(0, 0, null),
                                    () -> ctx.progress(1, 10, "x".repeat(501)))) {
                                try {
                                    bad.run();
                                } catch (IllegalArgumentException e) {
                                    refusals.add(e);
                                }
                            }
                        })
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
        errand.start();
        errand.enqueue(TaskRequest.builder(IMPORT, 1).build());
        await().atMost(Duration.ofSeconds(20)).until(() -> taskRows() == 0);
        assertThat(refusals)
                .extracting(Throwable::getMessage)
                .satisfiesExactly(
                        m -> assertThat(m).contains("between 0 and total"),
                        m -> assertThat(m).contains("between 0 and total"),
                        m -> assertThat(m).contains("total must be at least 1"),
                        m -> assertThat(m).contains("at most 500 characters"));
        assertThatThrownBy(() -> kept.get().progress(1, 2, null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("only while the handler runs");
        assertThatThrownBy(() -> errand.admin().progress(0)).hasMessageContaining("positive");
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task_progress")).isZero();
    }

    private static void hold(CountDownLatch latch) throws InterruptedException {
        if (!latch.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the test did not release the handler");
        }
    }
}
