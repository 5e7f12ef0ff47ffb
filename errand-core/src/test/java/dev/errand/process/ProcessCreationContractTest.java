package dev.errand.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Process creation on the cluster: {@code start} returns at once with the process {@code initializing}, a task of
 * the process reads the query a page per transaction with the definition's row mapper, its progress shows while it
 * runs, the batches written already run, and a failing query or row mapper fails the process with its error.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class ProcessCreationContractTest extends ErrandTestSupport {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private static final ProcessKind<Long> ROWS = ProcessKind.of("rows", Long.class);

    /** The row the mapper stops at until {@link #gate} opens, or 0 for none. */
    private volatile long stopAt;

    private final CountDownLatch gate = new CountDownLatch(1);
    /** The row the mapper throws at, or 0 for none. */
    private volatile long throwAt;

    private final AtomicInteger handled = new AtomicInteger();

    ProcessCreationContractTest(Target target) {
        super(target);
    }

    private Errand node(boolean withMapper) {
        ProcessDefinition<Long> definition = ProcessDefinition.simple(ROWS, (items, context) -> {
            for (Long item : items) {
                recordEffect(context.connection(), 0, "row-" + item);
            }
            handled.addAndGet(items.size());
        });
        if (withMapper) {
            definition = definition.withRowMapper(row -> {
                long id = row.getLong("id");
                if (id == stopAt) {
                    try {
                        gate.await(WAIT.toSeconds(), TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new java.sql.SQLException("interrupted", e);
                    }
                }
                if (id == throwAt) {
                    throw new IllegalStateException("row " + id + " is bad");
                }
                return id;
            });
        }
        return node(builder().queue("default", 4).registerProcess(definition));
    }

    private long distinctNotes() throws Exception {
        return scalar("SELECT COUNT(DISTINCT note) FROM " + prefix + "effect");
    }

    private void source(int rows) throws Exception {
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + prefix + "source (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(50) NOT NULL)");
            try (PreparedStatement insert =
                    c.prepareStatement("INSERT INTO " + prefix + "source (id, name) VALUES (?, ?)")) {
                for (int i = 1; i <= rows; i++) {
                    insert.setLong(1, i);
                    insert.setString(2, i % 2 == 0 ? "even" : "odd");
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
    }

    @Test
    void startReturnsAtOnceInitializingAndTheClusterCreatesTheBatchesWithVisibleProgress() throws Exception {
        source(1_050);
        Errand errand = node(true);
        stopAt = 421; // the first row of the third page: the creation waits there

        String id = errand.processes()
                .start(ProcessRequest.builder(ROWS)
                        .query("SELECT id, name FROM " + prefix + "source WHERE id > ? ORDER BY id", 0L)
                        .pageBy("id")
                        .pageSize(200) // rounded up to whole batches of 30: pages of 210 rows
                        .batchSize(30)
                        .build());

        ProcessInfo started = errand.processes().find(id).orElseThrow();
        assertThat(started.state()).isEqualTo(ProcessState.INITIALIZING);
        assertThat(started.state().isFinal()).isFalse();
        assertThat(started.rowsRead()).isZero();
        assertThat(started.batches()).isZero();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "process_batch")).isZero();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE kind = 'errand:process:rows:create'"))
                .isEqualTo(1);

        errand.start();
        // Two pages written, the third one held by the mapper: the progress shows, and written batches run.
        await().atMost(WAIT).untilAsserted(() -> {
            ProcessInfo info = errand.processes().find(id).orElseThrow();
            assertThat(info.state()).isEqualTo(ProcessState.INITIALIZING);
            assertThat(info.rowsRead()).isEqualTo(420);
            assertThat(info.batches()).isEqualTo(14);
            assertThat(info.turns().get(0).batches()).isEqualTo(14);
            assertThat(handled.get()).isEqualTo(420);
        });
        gate.countDown();

        ProcessInfo done = errand.processes().wait(id, WAIT);
        assertThat(done.state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(done.rowsRead()).isEqualTo(1_050);
        assertThat(done.batches()).isEqualTo(35);
        assertThat(done.turns()).hasSize(1);
        assertThat(done.turns().get(0).batches()).isEqualTo(35);
        assertThat(done.turns().get(0).succeeded()).isEqualTo(35);
        assertThat(effects()).isEqualTo(1_050);
        assertThat(distinctNotes()).isEqualTo(1_050);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "process_creation"))
                .isZero();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "process_batch WHERE state = 'succeeded'"))
                .isEqualTo(35);
    }

    @Test
    void aQueryPagedByOffsetWithParametersIsCreatedOnTheCluster() throws Exception {
        source(1_001);
        Errand errand = node(true);
        errand.start();

        String id = errand.processes()
                .start(ProcessRequest.builder(ROWS)
                        .query(
                                "SELECT id FROM " + prefix + "source WHERE name = ? AND id <= ? ORDER BY id",
                                "even",
                                1_000)
                        .pageSize(100)
                        .batchSize(7)
                        .processId("by-offset")
                        .build());

        ProcessInfo done = errand.processes().wait(id, WAIT);
        assertThat(done.state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(done.rowsRead()).isEqualTo(500);
        // Pages of 105 rows (100 rounded up to 15 batches of 7): 500 rows give 72 batches, every one but the last full.
        assertThat(done.batches()).isEqualTo(72);
        assertThat(effects()).isEqualTo(500);
        assertThat(distinctNotes()).isEqualTo(500);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "effect WHERE note = 'row-2'"))
                .isEqualTo(1);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "effect WHERE note = 'row-3'"))
                .isZero();
    }

    @Test
    void anEmptyResultSucceedsOnceCreated() throws Exception {
        source(10);
        Errand errand = node(true);
        errand.start();

        String id = errand.processes()
                .start(ProcessRequest.builder(ROWS)
                        .query("SELECT id FROM " + prefix + "source WHERE id > ? ORDER BY id", 100L)
                        .pageBy("id")
                        .build());

        ProcessInfo done = errand.processes().wait(id, WAIT);
        assertThat(done.state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(done.rowsRead()).isZero();
        assertThat(done.turns()).extracting(TurnInfo::batches).containsExactly(0);
    }

    @Test
    void aFailingQueryFailsTheProcessWithItsError() throws Exception {
        source(10);
        Errand errand = node(true);
        errand.start();

        // One SELECT with an ORDER BY, so the guard lets it through; the database refuses the unknown column.
        String id = errand.processes()
                .start(ProcessRequest.builder(ROWS)
                        .query("SELECT id, no_such_column FROM " + prefix + "source ORDER BY id")
                        .build());

        ProcessInfo done = errand.processes().wait(id, WAIT);
        assertThat(done.state()).isEqualTo(ProcessState.FAILED);
        assertThat(done.error())
                .startsWith("The creation of process '" + id + "' failed reading its query after 0 rows: ")
                .containsIgnoringCase("no_such_column");
        assertThat(done.finishedAt()).isNotNull();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "process_creation"))
                .isZero();
        // The creation's task itself ended well: the failure is the process's, recorded on it once.
        await().atMost(WAIT)
                .until(() -> scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE state NOT IN ('succeeded')") == 0);
    }

    @Test
    void aThrowingRowMapperFailsTheProcessAfterThePagesWrittenAndTheirTasksEnd() throws Exception {
        source(300);
        Errand errand = node(true);
        throwAt = 250;
        errand.start();

        String id = errand.processes()
                .start(ProcessRequest.builder(ROWS)
                        .query("SELECT id FROM " + prefix + "source ORDER BY id")
                        .pageBy("id")
                        .pageSize(100)
                        .batchSize(10)
                        .build());

        ProcessInfo done = errand.processes().wait(id, WAIT);
        assertThat(done.state()).isEqualTo(ProcessState.FAILED);
        assertThat(done.error())
                .isEqualTo("The creation of process '" + id + "' failed reading its query after 200 rows:"
                        + " java.lang.IllegalStateException: row 250 is bad");
        assertThat(done.rowsRead()).isEqualTo(200);
        assertThat(done.batches()).isEqualTo(20);
        // The written batches' tasks end (run before the failure, or skipped or cancelled after it), and so
        // does the turn's Errand batch: nothing is left waiting.
        await().atMost(WAIT)
                .until(() ->
                        scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE state NOT IN ('succeeded', 'cancelled')")
                                == 0);
        assertThat(errand.processes().find(id).orElseThrow().state()).isEqualTo(ProcessState.FAILED);
        assertThat(errand.processes().delete(id)).isTrue();
    }

    @Test
    void anInitializingProcessCanBeCancelledButNotDeleted() throws Exception {
        source(2_000);
        Errand errand = node(true);
        stopAt = 15; // in the second of 200 pages
        String id = errand.processes()
                .start(ProcessRequest.builder(ROWS)
                        .query("SELECT id FROM " + prefix + "source ORDER BY id")
                        .pageBy("id")
                        .pageSize(10)
                        .batchSize(10)
                        .build());
        assertThatThrownBy(() -> errand.processes().delete(id))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cancel it first");
        // Its creation task is cancelled with the process, never alone: the process would stay initializing.
        long creation = scalar("SELECT MIN(id) FROM " + prefix + "task WHERE kind = 'errand:process:rows:create'");
        assertThatThrownBy(() -> errand.admin().cancel(creation))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Task " + creation + " is the creation of a process; cancelling it would leave the"
                        + " process initializing for ever. Cancel the process instead with"
                        + " errand.processes().cancel(processId)");
        assertThatThrownBy(() -> errand.admin().delete(creation))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is the creation of a process; deleting it");
        errand.start();
        await().atMost(WAIT)
                .until(() -> errand.processes().find(id).orElseThrow().rowsRead() == 10);

        // The page in progress holds the process's row: the cancel waits for it, and the next page sees it.
        CompletableFuture<Boolean> cancel =
                CompletableFuture.supplyAsync(() -> errand.processes().cancel(id));
        gate.countDown();
        assertThat(cancel.get(60, TimeUnit.SECONDS)).isTrue();

        ProcessInfo info = errand.processes().find(id).orElseThrow();
        assertThat(info.state()).isEqualTo(ProcessState.CANCELLED);
        assertThat(info.rowsRead()).isLessThan(2_000);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "process_creation"))
                .isZero();
        await().atMost(WAIT)
                .until(() ->
                        scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE state NOT IN ('succeeded', 'cancelled')")
                                == 0);
        assertThat(errand.processes().find(id).orElseThrow().rowsRead()).isEqualTo(info.rowsRead());
        assertThat(errand.processes().delete(id)).isTrue();
    }

    @Test
    void badInputIsRefusedBeforeAnythingIsWritten() throws Exception {
        source(10);
        Errand withMapper = node(true);
        String sql = "SELECT id FROM " + prefix + "source ORDER BY id";

        assertThatThrownBy(() -> withMapper
                        .processes()
                        .start(ProcessRequest.builder(ROWS)
                                .query(sql, Instant.EPOCH)
                                .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Parameter 1 is a java.time.Instant, which a creation on the cluster cannot"
                        + " store; pass one of");
        assertThatThrownBy(() -> withMapper
                        .processes()
                        .start(ProcessRequest.builder(ROWS)
                                .query("SELECT id FROM " + prefix + "source")
                                .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has no ORDER BY of its own");
        assertThatThrownBy(() -> ProcessRequest.builder(ROWS)
                        .query(sql)
                        .beforeQuery(c -> {})
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("beforeQuery(...) runs on the caller's connection");
        assertThatThrownBy(() ->
                        ProcessDefinition.simple(ROWS, (items, context) -> {}).withRowMapper(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("The row mapper of process 'rows' must not be null");
        assertThatThrownBy(() -> ProcessRequest.builder(ROWS).query(" ").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("sql must not be blank");
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "process")).isZero();
        assertThat(taskRows()).isZero();
    }

    @Test
    void aDefinitionWithoutARowMapperRefusesACreationOnTheClusterButTakesAnInlineMapper() throws Exception {
        source(10);
        Errand errand = node(false);
        String sql = "SELECT id FROM " + prefix + "source ORDER BY id";

        assertThatThrownBy(() -> errand.processes()
                        .start(ProcessRequest.builder(ROWS).query(sql).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Process 'rows' has no row mapper for a creation on the cluster; register its"
                        + " definition with .withRowMapper(row -> ...)");
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "process")).isZero();

        // An inline mapper keeps the creation in the call: the process is running when start returns.
        String id = errand.processes()
                .start(ProcessRequest.builder(ROWS)
                        .query(sql, row -> row.getLong(1))
                        .batchSize(4)
                        .build());
        ProcessInfo started = errand.processes().find(id).orElseThrow();
        assertThat(started.state()).isEqualTo(ProcessState.RUNNING);
        assertThat(started.rowsRead()).isEqualTo(10);
        assertThat(started.batches()).isEqualTo(3);
        errand.start();
        assertThat(errand.processes().wait(id, WAIT).state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(List.of(effects(), distinctNotes())).containsExactly(10L, 10L);
    }
}
