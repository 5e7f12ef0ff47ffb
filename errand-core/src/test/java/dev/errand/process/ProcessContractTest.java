package dev.errand.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Distributed processes on a real database: creation from a collection and from a paged query, turns with
 * analysis, batch retries and the failure of the whole process, the node-group restriction, cancel, re-run and
 * bad input.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class ProcessContractTest extends ErrandTestSupport {

    private static final Duration WAIT = Duration.ofSeconds(30);

    /** One item of the test processes. */
    record Item(int n, String name) {}

    private static final ProcessKind<Item> SIMPLE = ProcessKind.of("simple", Item.class);
    private static final ProcessKind<Item> TURNS = ProcessKind.of("turns", Item.class);
    private static final ProcessKind<Item> FLAKY = ProcessKind.of("flaky", Item.class);

    /** Items handled, with the node and turn that handled them. */
    private final List<String> handled = new CopyOnWriteArrayList<>();
    /** Tries per batch number of the flaky process, and how many of its first tries fail. */
    private final Map<Integer, Integer> flakyTries = new ConcurrentHashMap<>();

    private volatile int flakyFailures = 2;
    private final AtomicBoolean flakyHealed = new AtomicBoolean();
    private final List<TurnResult> analysed = new CopyOnWriteArrayList<>();

    ProcessContractTest(Target target) {
        super(target);
    }

    private ErrandBuilder processNode(ErrandBuilder builder, String nodeId) {
        return builder.nodeId(nodeId)
                .queue("default", 4)
                .registerProcess(ProcessDefinition.simple(SIMPLE, (items, context) -> {
                    for (Item item : items) {
                        handled.add(item.n() + "@" + nodeId);
                        effect(context.connection(), "simple-" + item.n());
                    }
                }))
                .registerProcess(ProcessDefinition.of(TURNS, new ProcessHandler<>() {
                    @Override
                    public void execute(List<Item> items, BatchContext context) throws Exception {
                        for (Item item : items) {
                            effect(context.connection(), "turn" + context.turn() + "-" + item.n());
                        }
                    }

                    @Override
                    public TurnDecision<Item> analyse(TurnResult result, AnalysisContext context) throws Exception {
                        analysed.add(result);
                        effect(context.connection(), "analysed-" + result.turn());
                        effect(context.connection(), "analysed-on-" + nodeId);
                        if (result.turn() == 3) {
                            return TurnDecision.finish();
                        }
                        // Each turn gives the next one batch per batch it ran, of two items.
                        List<List<Item>> next = new ArrayList<>();
                        for (int i = 0; i < result.batches(); i++) {
                            next.add(List.of(new Item(i, "a"), new Item(i, "b")));
                        }
                        return TurnDecision.nextTurn(next);
                    }
                }))
                .registerProcess(ProcessDefinition.simple(FLAKY, (items, context) -> {
                    effect(context.connection(), "flaky-" + context.batchNumber() + "-try" + context.tries());
                    int tries = flakyTries.merge(context.batchNumber(), 1, Integer::sum);
                    boolean failing =
                            items.stream().anyMatch(item -> item.name().equals("bad"));
                    if (failing && !flakyHealed.get() && tries <= flakyFailures) {
                        throw new IllegalStateException("bad item in batch " + context.batchNumber());
                    }
                }));
    }

    private Errand processNode() {
        return node(processNode(builder(), "node-a"));
    }

    private void effect(Connection connection, String note) throws Exception {
        recordEffect(connection, 0, note);
    }

    private static List<Item> items(int count) {
        return IntStream.rangeClosed(1, count)
                .mapToObj(n -> new Item(n, "item" + n))
                .toList();
    }

    // ---- creation ----

    @Test
    void aCollectionIsSplitIntoBatchesOfTheBatchSizeAndEveryItemIsHandledOnce() throws Exception {
        Errand errand = processNode();
        String id = errand.processes().start(ProcessRequest.of(SIMPLE, items(250)));
        errand.start();

        ProcessInfo info = errand.processes().wait(id, WAIT);

        assertThat(info.state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(info.turns()).hasSize(1);
        assertThat(info.turns().get(0).batches()).isEqualTo(3); // 100 + 100 + 50
        assertThat(info.turns().get(0).succeeded()).isEqualTo(3);
        assertThat(info.turns().get(0).analysedAt()).isNotNull();
        assertThat(info.finishedAt()).isNotNull();
        assertThat(scalar("SELECT COUNT(DISTINCT note) FROM " + prefix + "effect WHERE note LIKE 'simple-%'"))
                .isEqualTo(250);
        assertThat(effects()).isEqualTo(250);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "process_batch WHERE state = 'succeeded'"))
                .isEqualTo(3);
    }

    @Test
    void creationJoinsTheCallersTransaction() throws Exception {
        Errand errand = processNode();
        try (Connection c = dataSource().getConnection()) {
            c.setAutoCommit(false);
            errand.processes()
                    .start(
                            c,
                            ProcessRequest.builder(SIMPLE)
                                    .items(items(10))
                                    .processId("rolled-back")
                                    .build());
            c.rollback();
        }
        assertThat(errand.processes().find("rolled-back")).isEmpty();
        assertThat(taskRows()).isZero();

        try (Connection c = dataSource().getConnection()) {
            c.setAutoCommit(false);
            errand.processes()
                    .start(
                            c,
                            ProcessRequest.builder(SIMPLE)
                                    .items(items(10))
                                    .processId("committed")
                                    .batchSize(3)
                                    .build());
            c.commit();
        }
        errand.start();
        ProcessInfo info = errand.processes().wait("committed", WAIT);
        assertThat(info.state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(info.turns().get(0).batches()).isEqualTo(4);
    }

    @Test
    void aQueryIsReadPageByPageAfterItsHookAndEveryRowIsHandledOnce() throws Exception {
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + prefix + "source (id INT NOT NULL PRIMARY KEY, name VARCHAR(50) NOT NULL)");
            try (PreparedStatement insert =
                    c.prepareStatement("INSERT INTO " + prefix + "source (id, name) VALUES (?, ?)")) {
                for (int i = 1; i <= 1_050; i++) {
                    insert.setInt(1, i);
                    insert.setString(2, i % 2 == 0 ? "even" : "odd");
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            s.execute("CREATE TABLE " + prefix + "hooked (id INT NOT NULL)");
        }
        Errand errand = processNode();
        List<Integer> mapped = new CopyOnWriteArrayList<>();
        String id = errand.processes()
                .start(ProcessRequest.builder(SIMPLE)
                        .beforeQuery(c -> {
                            try (Statement s = c.createStatement()) {
                                // The hook's write is visible to the query: only rows above 50 are read.
                                s.execute("INSERT INTO " + prefix + "hooked (id) VALUES (50)");
                            }
                        })
                        .query(
                                "SELECT id, name FROM " + prefix + "source WHERE id > (SELECT MAX(id) FROM " + prefix
                                        + "hooked) AND name <> ? ORDER BY id",
                                row -> {
                                    mapped.add(row.getInt(1));
                                    return new Item(row.getInt(1), row.getString(2));
                                },
                                "none")
                        .pageSize(128)
                        .batchSize(30)
                        .build());
        errand.start();

        ProcessInfo info = errand.processes().wait(id, WAIT);

        assertThat(info.state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(mapped).hasSize(1_000).doesNotHaveDuplicates();
        assertThat(info.turns().get(0).batches()).isEqualTo(34); // 1000 rows / 30
        assertThat(scalar("SELECT COUNT(DISTINCT note) FROM " + prefix + "effect"))
                .isEqualTo(1_000);
        assertThat(scalar("SELECT MIN(CAST(SUBSTRING(note, 8) AS INT)) FROM " + prefix + "effect"))
                .isEqualTo(51);
    }

    @Test
    void aQueryPagedByItsKeyReadsEveryRowOnceInKeyOrder() throws Exception {
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + prefix + "keyed (grp INT NOT NULL, id INT NOT NULL, name VARCHAR(50) NOT NULL,"
                    + " PRIMARY KEY (grp, id))");
            try (PreparedStatement insert =
                    c.prepareStatement("INSERT INTO " + prefix + "keyed (grp, id, name) VALUES (?, ?, ?)")) {
                // Groups of unequal sizes, inserted out of order, so that pages end inside and across groups.
                for (int n = 1_000; n >= 1; n--) {
                    insert.setInt(1, n % 13);
                    insert.setInt(2, n);
                    insert.setString(3, n % 10 == 0 ? "skip" : "keep");
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
        Errand errand = processNode();
        List<int[]> mapped = new CopyOnWriteArrayList<>();
        String id = errand.processes()
                .start(ProcessRequest.builder(SIMPLE)
                        .query(
                                "SELECT grp, id AS n, name FROM " + prefix + "keyed WHERE name <> ? ORDER BY grp, n",
                                row -> {
                                    mapped.add(new int[] {row.getInt("grp"), row.getInt("n")});
                                    return new Item(row.getInt("n"), row.getString("name"));
                                },
                                "skip")
                        .pageBy("grp", "n")
                        .pageSize(7)
                        .batchSize(50)
                        .build());
        errand.start();

        ProcessInfo info = errand.processes().wait(id, WAIT);

        assertThat(info.state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(mapped).hasSize(900);
        assertThat(mapped.stream().map(key -> key[1]).distinct().count()).isEqualTo(900);
        for (int i = 1; i < mapped.size(); i++) {
            int[] before = mapped.get(i - 1);
            int[] now = mapped.get(i);
            assertThat(before[0] < now[0] || before[0] == now[0] && before[1] < now[1])
                    .as("row %d after row %d in key order", i, i - 1)
                    .isTrue();
        }
        assertThat(info.turns().get(0).batches()).isEqualTo(18);
        assertThat(scalar("SELECT COUNT(DISTINCT note) FROM " + prefix + "effect"))
                .isEqualTo(900);
    }

    @Test
    void anEmptyInputSucceedsAtOnce() throws Exception {
        Errand errand = processNode();
        String id = errand.processes().start(ProcessRequest.of(SIMPLE, List.of()));
        ProcessInfo info = errand.processes().find(id).orElseThrow();
        assertThat(info.state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(info.turns()).singleElement().extracting(TurnInfo::batches).isEqualTo(0);
        assertThat(taskRows()).isZero();
    }

    // ---- turns ----

    @Test
    void threeTurnsWithAnAnalysisAfterEach() throws Exception {
        Errand errand = processNode();
        String id = errand.processes()
                .start(ProcessRequest.builder(TURNS)
                        .items(items(5))
                        .batchSize(2)
                        .build());
        errand.start();

        ProcessInfo info = errand.processes().wait(id, WAIT);

        assertThat(info.state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(info.turn()).isEqualTo(3);
        assertThat(info.turns()).extracting(TurnInfo::batches).containsExactly(3, 3, 3);
        assertThat(info.turns()).extracting(TurnInfo::succeeded).containsExactly(3, 3, 3);
        assertThat(info.batches()).isEqualTo(9);
        assertThat(analysed).extracting(TurnResult::turn).containsExactly(1, 2, 3);
        assertThat(effectNotes())
                .filteredOn(note -> note.matches("analysed-\\d"))
                .hasSize(3);
        assertThat(effectNotes()).filteredOn(note -> note.startsWith("turn1-")).hasSize(5);
        assertThat(effectNotes()).filteredOn(note -> note.startsWith("turn2-")).hasSize(6);
        assertThat(effectNotes()).filteredOn(note -> note.startsWith("turn3-")).hasSize(6);
    }

    @Test
    void aTurnIsAnalysedOnceEvenWhenItsAnalysisTaskRunsAgain() throws Exception {
        Errand errand = processNode();
        String id = errand.processes()
                .start(ProcessRequest.builder(TURNS).items(items(2)).build());
        errand.start();
        assertThat(errand.processes().wait(id, WAIT).state()).isEqualTo(ProcessState.SUCCEEDED);

        // The analysis tasks of every turn again, as a repeated callback would enqueue them.
        for (int turn = 1; turn <= 3; turn++) {
            errand.enqueue(dev.errand.enqueue.TaskRequest.of(
                    dev.errand.internal.process.ProcessRegistry.turnKind(TURNS.name()),
                    new dev.errand.internal.process.TurnRef(id, turn, false)));
        }
        org.awaitility.Awaitility.await().atMost(WAIT).until(() -> taskRows() == 0);

        assertThat(analysed).extracting(TurnResult::turn).containsExactly(1, 2, 3);
        assertThat(effectNotes())
                .filteredOn(note -> note.matches("analysed-\\d"))
                .hasSize(3);
        ProcessInfo info = errand.processes().find(id).orElseThrow();
        assertThat(info.state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(info.turns()).hasSize(3);
    }

    // ---- retries and failure ----

    @Test
    void aFailedBatchRunsAgainInTheNextTurnsAndItsFailedWritesRollBack() throws Exception {
        Errand errand = processNode();
        List<Item> input = new ArrayList<>(items(9));
        input.set(4, new Item(5, "bad")); // in batch 2 of 3
        String id = errand.processes()
                .start(ProcessRequest.builder(FLAKY).items(input).batchSize(3).build());
        errand.start();

        ProcessInfo info = errand.processes().wait(id, WAIT);

        assertThat(info.state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(info.turns()).extracting(TurnInfo::batches).containsExactly(3, 1, 1);
        assertThat(info.turns()).extracting(TurnInfo::failed).containsExactly(1, 1, 0);
        assertThat(info.batches()).isEqualTo(3);
        List<FailedBatch> failed = errand.processes().failedBatches(id, 10);
        assertThat(failed).extracting(FailedBatch::turn).containsExactly(2, 1);
        assertThat(failed).extracting(FailedBatch::tries).containsExactly(2, 1);
        assertThat(failed).allSatisfy(batch -> {
            assertThat(batch.batchNumber()).isEqualTo(2);
            assertThat(batch.nodeId()).isEqualTo("node-a");
            assertThat(batch.error()).contains("IllegalStateException").contains("bad item in batch 2");
        });
        // The failed tries' writes rolled back: batch 2 left one effect, from its third try.
        assertThat(effectNotes())
                .filteredOn(note -> note.startsWith("flaky-2-"))
                .containsExactly("flaky-2-try3");
    }

    @Test
    void aBatchThatFailsMoreOftenThanTheRetriesAllowFailsTheProcessAndCanBeRerun() throws Exception {
        flakyFailures = Integer.MAX_VALUE;
        Errand errand = processNode();
        List<Item> input = new ArrayList<>(items(4));
        input.set(3, new Item(4, "bad"));
        String id = errand.processes()
                .start(ProcessRequest.builder(FLAKY)
                        .items(input)
                        .batchSize(2)
                        .retries(1)
                        .processId("doomed")
                        .build());
        errand.start();

        ProcessInfo failed = errand.processes().wait(id, WAIT);

        assertThat(failed.state()).isEqualTo(ProcessState.FAILED);
        assertThat(failed.turns()).extracting(TurnInfo::batches).containsExactly(2, 1);
        assertThat(failed.error())
                .contains("Batch 2 failed 2 times (retries 1)")
                .contains("bad item in batch 2");
        assertThat(errand.processes().list(ProcessState.FAILED, 10))
                .extracting(ProcessInfo::id)
                .containsExactly("doomed");

        flakyHealed.set(true);
        assertThat(errand.processes().rerunFailed(id)).isEqualTo(1);
        ProcessInfo rerun = errand.processes().wait(id, WAIT);
        assertThat(rerun.state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(rerun.error()).isNull();
        assertThat(rerun.turns()).extracting(TurnInfo::batches).containsExactly(2, 1, 1);
        assertThat(scalar("SELECT tries FROM " + prefix + "process_batch WHERE turn = 3"))
                .isEqualTo(1);
        assertThat(errand.processes().rerunFailed(id)).isZero();
    }

    @Test
    void anAnalysisThatThrowsFailsTheProcess() throws Exception {
        ProcessKind<Item> kind = ProcessKind.of("broken-analysis", Item.class);
        Errand errand = node(
                processNode(builder(), "node-a").registerProcess(ProcessDefinition.of(kind, new ProcessHandler<>() {
                    @Override
                    public void execute(List<Item> items, BatchContext context) {}

                    @Override
                    public TurnDecision<Item> analyse(TurnResult result, AnalysisContext context) {
                        throw new IllegalStateException("cannot decide");
                    }
                })));
        String id = errand.processes().start(ProcessRequest.of(kind, items(3)));
        errand.start();
        ProcessInfo info = errand.processes().wait(id, WAIT);
        assertThat(info.state()).isEqualTo(ProcessState.FAILED);
        assertThat(info.error())
                .isEqualTo("The analysis of turn 1 failed: java.lang.IllegalStateException: cannot decide");
    }

    @Test
    void anAnalysisTaskThatFailsForGoodFailsTheProcessInsteadOfLeavingItRunning() throws Exception {
        ProcessKind<Item> kind = ProcessKind.of("dying-analysis", Item.class);
        Errand errand = node(processNode(builder(), "node-a")
                .defaultRetryPolicy(dev.errand.retry.RetryPolicy.fixed(Duration.ofMillis(20)))
                .registerProcess(ProcessDefinition.of(kind, new ProcessHandler<>() {
                    @Override
                    public void execute(List<Item> items, BatchContext context) {}

                    @Override
                    public TurnDecision<Item> analyse(TurnResult result, AnalysisContext context) {
                        // An Error is not the analysis's decision: the task retries it, and runs out of attempts.
                        throw new LinkageError("analysis cannot load its rules");
                    }
                })));
        String id = errand.processes().start(ProcessRequest.of(kind, items(3)));
        errand.start();

        ProcessInfo info = errand.processes().wait(id, WAIT);

        assertThat(info.state()).isEqualTo(ProcessState.FAILED);
        assertThat(info.error())
                .startsWith("The analysis task of turn 1 failed for good: ")
                .contains("LinkageError")
                .contains("analysis cannot load its rules");
        assertThat(info.finishedAt()).isNotNull();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE kind = 'errand:process:dying-analysis:turn'"
                        + " AND state = 'failed' AND attempt = 5"))
                .isEqualTo(1);
    }

    @Test
    void theAnalysisTaskOfARunningTurnCannotBeCancelledOrDeletedAlone() throws Exception {
        ProcessKind<Item> kind = ProcessKind.of("guarded-analysis", Item.class);
        java.util.concurrent.CountDownLatch analysing = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        Errand errand = node(
                processNode(builder(), "node-a").registerProcess(ProcessDefinition.of(kind, new ProcessHandler<>() {
                    @Override
                    public void execute(List<Item> items, BatchContext context) {}

                    @Override
                    public TurnDecision<Item> analyse(TurnResult result, AnalysisContext context) {
                        analysing.countDown();
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return TurnDecision.finish();
                    }
                })));
        String id = errand.processes().start(ProcessRequest.of(kind, items(3)));
        errand.start();
        assertThat(analysing.await(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS))
                .isTrue();
        long analysis =
                scalar("SELECT MIN(id) FROM " + prefix + "task WHERE kind = 'errand:process:guarded-analysis:turn'");

        try {
            assertThatThrownBy(() -> errand.admin().cancel(analysis))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is the analysis of a turn of a process")
                    .hasMessageContaining("errand.processes().cancel(processId)");
            assertThatThrownBy(() -> errand.admin().requestCancel(analysis))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is the analysis of a turn of a process");
            assertThatThrownBy(() -> errand.admin().delete(analysis))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("deleting it would leave the process running");
        } finally {
            release.countDown();
        }

        assertThat(errand.processes().wait(id, WAIT).state()).isEqualTo(ProcessState.SUCCEEDED);
    }

    @Test
    void aBatchTaskThatFailsForGoodRecordsItsErrorOnTheBatchAndTheProcessEnds() throws Exception {
        ProcessKind<Item> kind = ProcessKind.of("dying-batch", Item.class);
        Errand errand = node(processNode(builder(), "node-a")
                .defaultRetryPolicy(dev.errand.retry.RetryPolicy.fixed(Duration.ofMillis(20)))
                .registerProcess(ProcessDefinition.simple(kind, (items, context) -> {
                    if (items.get(0).n() == 1) {
                        throw new LinkageError("batch cannot load its rules");
                    }
                })));
        String id = errand.processes()
                .start(ProcessRequest.builder(kind)
                        .items(items(4))
                        .batchSize(2)
                        .retries(0)
                        .build());
        errand.start();

        ProcessInfo info = errand.processes().wait(id, WAIT);

        assertThat(info.state()).isEqualTo(ProcessState.FAILED);
        assertThat(info.turns()).extracting(TurnInfo::failed).containsExactly(1);
        assertThat(info.turns()).extracting(TurnInfo::succeeded).containsExactly(1);
        assertThat(info.error())
                .startsWith("Batch 1 failed 1 times (retries 0); its last error: The batch's task failed for good: ")
                .contains("batch cannot load its rules");
        assertThat(errand.processes().failedBatches(id, 10)).singleElement().satisfies(batch -> {
            assertThat(batch.batchNumber()).isEqualTo(1);
            assertThat(batch.nodeId()).isNull();
            assertThat(batch.error()).contains("LinkageError: batch cannot load its rules");
        });
    }

    // ---- node groups, cancel ----

    @Test
    void aProcessRestrictedToANodeGroupRunsItsBatchesOnlyThere() throws Exception {
        // Exclusive: it claims only tasks pinned to its group, so the (unpinned) callbacks that end each turn go to
        // the other node, which passes each analysis on to the group.
        Errand inGroup =
                node(processNode(builder(), "in-group").nodeGroups("reports").exclusive(true));
        Errand outside = node(processNode(builder(), "outside"));
        String id = inGroup.processes()
                .start(ProcessRequest.builder(SIMPLE)
                        .items(items(40))
                        .batchSize(2)
                        .nodeGroup("reports")
                        .build());
        outside.start();
        inGroup.start();

        ProcessInfo info = inGroup.processes().wait(id, WAIT);

        assertThat(info.state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(info.nodeGroup()).isEqualTo("reports");
        assertThat(handled).hasSize(40).allSatisfy(entry -> assertThat(entry).endsWith("@in-group"));
        // A process of turns in the group: its analyses run there too, also when the other node fires the callback.
        String turns = outside.processes()
                .start(ProcessRequest.builder(TURNS)
                        .items(items(6))
                        .batchSize(1)
                        .nodeGroup("reports")
                        .build());
        assertThat(inGroup.processes().wait(turns, WAIT).state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(effectNotes())
                .filteredOn(note -> note.startsWith("analysed-on-"))
                .containsOnly("analysed-on-in-group")
                .hasSize(3);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "process_batch WHERE node_id <> 'in-group'"))
                .isZero();
    }

    @Test
    void cancellingAProcessCancelsItsUnstartedBatchesAndNoAnalysisFollows() throws Exception {
        Errand errand = processNode();
        String id = errand.processes()
                .start(ProcessRequest.builder(TURNS)
                        .items(items(20))
                        .batchSize(1)
                        .build());
        assertThat(errand.processes().cancel(id)).isTrue();
        assertThat(errand.processes().cancel(id)).isFalse();
        errand.start();
        Thread.sleep(500); // the point: nothing of the cancelled process runs in this time
        ProcessInfo info = errand.processes().find(id).orElseThrow();
        assertThat(info.state()).isEqualTo(ProcessState.CANCELLED);
        assertThat(info.turns()).hasSize(1);
        assertThat(analysed).isEmpty();
        assertThat(effects()).isZero();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE state = 'cancelled'"))
                .isEqualTo(20);
    }

    @Test
    void twoTransactionsStartingAProcessWithTheSameIdAtOnceGiveOneProcessAndAClearError() throws Exception {
        Errand errand = processNode();
        java.util.concurrent.ExecutorService second = java.util.concurrent.Executors.newSingleThreadExecutor();
        try (Connection a = dataSource().getConnection();
                Connection b = dataSource().getConnection()) {
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            errand.processes()
                    .start(
                            a,
                            ProcessRequest.builder(SIMPLE)
                                    .items(items(3))
                                    .processId("same")
                                    .build());
            // B sees no committed process "same" and inserts: its insert waits on A's key until A commits.
            java.util.concurrent.Future<String> racing = second.submit(() -> errand.processes()
                    .start(
                            b,
                            ProcessRequest.builder(SIMPLE)
                                    .items(items(5))
                                    .processId("same")
                                    .build()));
            Thread.sleep(300); // the point: B's insert waits on A's key when A commits
            a.commit();
            assertThatThrownBy(() -> racing.get(30, java.util.concurrent.TimeUnit.SECONDS))
                    .hasCauseInstanceOf(IllegalArgumentException.class)
                    .cause()
                    .hasMessage("Process 'same' exists already: another transaction created it at the same time;"
                            + " roll this transaction back, and give the new process another id or leave the id"
                            + " out");
            b.rollback();
        } finally {
            second.shutdownNow();
        }
        errand.start();
        ProcessInfo info = errand.processes().wait("same", WAIT);
        assertThat(info.state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(info.turns()).extracting(TurnInfo::batches).containsExactly(1);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "process")).isEqualTo(1);
        assertThat(effects()).isEqualTo(3);
    }

    @Test
    void endedProcessesAreDeletedWithTheirTurnsAndBatchesAndRunningOnesAreKept() throws Exception {
        Errand errand = processNode();
        String ran = errand.processes()
                .start(ProcessRequest.builder(SIMPLE)
                        .items(items(5))
                        .batchSize(2)
                        .build());
        assertThatThrownBy(() -> errand.processes().delete(ran))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Process \"" + ran + "\" is running; cancel it first with cancel(\"" + ran
                        + "\"), then delete it");
        for (int i = 0; i < 120; i++) {
            // An empty input: succeeded at once.
            errand.processes()
                    .start(ProcessRequest.builder(SIMPLE)
                            .items(List.of())
                            .processId("empty-" + i)
                            .build());
        }
        errand.start();
        assertThat(errand.processes().wait(ran, WAIT).state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "process_batch WHERE process_id = '" + ran + "'"))
                .isEqualTo(3);

        assertThat(errand.processes().delete(ran)).isTrue();
        assertThat(errand.processes().find(ran)).isEmpty();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "process_batch WHERE process_id = '" + ran + "'"))
                .isZero();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "process_turn WHERE process_id = '" + ran + "'"))
                .isZero();
        assertThat(errand.processes().delete(ran)).isFalse();

        errand.stop(Duration.ofSeconds(5));
        String running = errand.processes().start(ProcessRequest.of(SIMPLE, items(3)));
        assertThat(errand.processes()
                        .deleteFinishedBefore(java.time.Instant.now().minus(Duration.ofHours(1))))
                .isZero();
        // 120 ended processes: two transactions, of 100 and 20.
        assertThat(errand.processes()
                        .deleteFinishedBefore(java.time.Instant.now().plus(Duration.ofHours(1))))
                .isEqualTo(120);
        assertThat(errand.processes().list(null, 1_000))
                .extracting(ProcessInfo::id)
                .containsExactly(running);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "process_turn")).isEqualTo(1);
        assertThatThrownBy(() -> errand.processes().deleteFinishedBefore(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("before must not be null");
        assertThatThrownBy(() -> errand.processes().delete(" ")).isInstanceOf(IllegalArgumentException.class);
    }

    // ---- bad input ----

    @Test
    void badInputIsRefusedWithAMessageThatSaysWhatToDo() throws Exception {
        Errand errand = processNode();
        ProcessAdmin processes = errand.processes();
        ProcessKind<Item> unknown = ProcessKind.of("unknown", Item.class);
        assertThatThrownBy(() -> processes.start(ProcessRequest.of(unknown, items(1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("registerProcess");
        assertThatThrownBy(
                        () -> processes.start(ProcessRequest.of(ProcessKind.of("simple", String.class), List.of("x"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("registered with items of");
        assertThatThrownBy(() -> processes.start(ProcessRequest.builder(SIMPLE)
                        .items(items(1))
                        .queue("nowhere")
                        .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Queue 'nowhere' is not configured");
        processes.start(ProcessRequest.builder(SIMPLE)
                .items(items(1))
                .processId("twice")
                .build());
        assertThatThrownBy(() -> processes.start(ProcessRequest.builder(SIMPLE)
                        .items(items(1))
                        .processId("twice")
                        .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exists already");
        assertThatThrownBy(() -> processes.start(null, ProcessRequest.of(SIMPLE, items(1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("connection must not be null");
        assertThatThrownBy(() -> processes.start(null)).isInstanceOf(IllegalArgumentException.class);
        // The query is checked when the process starts, as the connection's database reads SQL.
        assertThatThrownBy(() -> processes.start(ProcessRequest.builder(SIMPLE)
                        .query("SELECT 1", row -> null)
                        .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has no ORDER BY");
        assertThatThrownBy(() -> processes.start(ProcessRequest.builder(SIMPLE)
                        .query("SELECT 1 ORDER BY 1;", row -> null)
                        .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("semicolon");
        assertThatThrownBy(() -> ProcessRequest.builder(SIMPLE).batchSize(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("batchSize must be between 1");
        assertThatThrownBy(() -> ProcessRequest.builder(SIMPLE).retries(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("retries must be between 0");
        assertThatThrownBy(() -> ProcessRequest.builder(SIMPLE).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("either items(...) or query(...)");
        assertThatThrownBy(() -> ProcessRequest.builder(SIMPLE).items(java.util.Arrays.asList(new Item(1, "a"), null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("null");
        assertThatThrownBy(() -> ProcessKind.of(" padded", Item.class)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> processes.wait("missing", Duration.ofMillis(10)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no process \"missing\"");
        assertThatThrownBy(() -> processes.wait("twice", Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> processes.cancel("missing")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> processes.rerunFailed(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> processes.list(null, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TurnDecision.nextTurn(List.of(List.of())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("null or empty");
        assertThatThrownBy(() -> builder()
                        .registerProcess(ProcessDefinition.simple(SIMPLE, (items, c) -> {}))
                        .registerProcess(ProcessDefinition.simple(SIMPLE, (items, c) -> {})))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("registered twice");
    }
}
