package dev.errand.internal.process;

import dev.errand.batch.BatchEvent;
import dev.errand.config.ErrandSettings;
import dev.errand.enqueue.TaskRequest;
import dev.errand.internal.engine.Kinds;
import dev.errand.internal.engine.Stores;
import dev.errand.internal.enqueue.Requests;
import dev.errand.internal.store.NewTask;
import dev.errand.internal.store.Storage;
import dev.errand.internal.store.TaskInserter;
import dev.errand.internal.workflow.Finish;
import dev.errand.internal.workflow.Finisher;
import dev.errand.internal.workflow.WorkflowStore;
import dev.errand.process.AnalysisContext;
import dev.errand.process.BatchContext;
import dev.errand.process.FailedBatch;
import dev.errand.process.ProcessDefinition;
import dev.errand.process.ProcessRequest;
import dev.errand.process.ProcessState;
import dev.errand.process.TurnDecision;
import dev.errand.process.TurnResult;
import dev.errand.spi.PayloadCodec;
import dev.errand.task.TaskContext;
import java.lang.reflect.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Runs the phases of processes on one node: creation (on the caller's connection), the task that runs a batch,
 * the batch callback that analyses a turn and starts the next one, and the operator's cancel and re-run. Every
 * phase is one transaction; a node that dies in one leaves nothing behind, and the task's retry does it again.
 */
public final class ProcessRuntime {

    /** How many batches are written per round trip, so that creation holds one chunk and one page at a time. */
    static final int CHUNK = 200;

    /** How many failed batches an analysis is shown. */
    static final int SHOWN_FAILURES = 1_000;

    private final Storage storage;
    private final Stores stores;
    private final ProcessStore store;
    private final Requests requests;
    private final PayloadCodec codec;
    private final ProcessRegistry registry;
    private final ErrandSettings settings;
    private final TaskInserter inserter;
    private final Finisher finisher;
    private final ProcessCreation creation;

    /**
     * Creates the runtime of a node and binds the registry's task handlers to it.
     *
     * @param stores the task table, the batches and the finisher
     * @param store the process tables' statements
     * @param settings the node's settings
     * @param kinds the kinds this node registered
     * @param registry the processes this node registered
     */
    public ProcessRuntime(
            Stores stores, ProcessStore store, ErrandSettings settings, Kinds kinds, ProcessRegistry registry) {
        this.storage = stores.storage();
        this.stores = stores;
        this.settings = settings;
        this.store = store;
        this.requests = kinds.requests();
        this.codec = kinds.codec();
        this.registry = registry;
        this.inserter = storage.inserter();
        this.finisher = stores.finisher();
        this.creation = new ProcessCreation(this, registry, codec);
        registry.bind(this);
    }

    /** The process SQL. */
    public ProcessStore store() {
        return store;
    }

    /** The node's storage. */
    public Storage storage() {
        return storage;
    }

    /** The creations of processes on the cluster. */
    ProcessCreation creation() {
        return creation;
    }

    /** Checks a turn's Errand batch again after a commit, in case its last task ended before it was sized. */
    void recheck(long batchId) {
        finisher.recheck(java.util.Set.of(batchId));
    }

    /** The requests of the node's kinds, for the tasks a process enqueues. */
    Requests requests() {
        return requests;
    }

    /** The task inserter. */
    TaskInserter inserter() {
        return inserter;
    }

    /** The channel the process's tasks are announced on. */
    String channel() {
        return stores.workflows().channel();
    }

    /** Opens the ending of tasks in a transaction that is about to begin; see {@link Finisher#open()}. */
    public Finish openFinish() {
        return finisher.open();
    }

    // ---- creation ----

    /**
     * Creates a process on the caller's connection: its row, its first turn and that turn's batches and tasks,
     * written a chunk at a time while the input is read.
     *
     * @return the process id
     */
    public String start(Connection c, ProcessRequest<?> request) throws SQLException {
        ProcessDefinition<?> definition = registry.definition(request.kind().name());
        if (definition == null) {
            throw new IllegalArgumentException("Process '" + request.kind().name() + "' is not registered on this"
                    + " node; register it with ErrandBuilder.registerProcess(...) on the nodes that create or run it");
        }
        if (!definition.kind().itemType().equals(request.kind().itemType())) {
            throw new IllegalArgumentException("Process '" + request.kind().name() + "' is registered with items of "
                    + definition.kind().itemType().getName() + ", not "
                    + request.kind().itemType().getName());
        }
        if (!settings.queues().containsKey(request.queue())) {
            throw new IllegalArgumentException("Queue '" + request.queue() + "' is not configured; declare it with"
                    + " Errand.builder(dataSource).queue(\"" + request.queue() + "\", concurrency)");
        }
        if (request.createdOnCluster() && definition.rowMapper() == null) {
            throw new IllegalArgumentException("Process '" + request.kind().name() + "' has no row mapper for a"
                    + " creation on the cluster; register its definition with .withRowMapper(row -> ...) on every"
                    + " node, or pass the mapper with query(sql, mapper, parameters...) to create it in this call");
        }
        // Before anything is written, unless a hook comes first: it may change how the session reads quotes.
        PagedQuery query = request.sql() == null || request.hook() != null
                ? null
                : PagedQuery.check(request, storage.dialect().sqlQuoting(c));
        String id = request.processId() != null
                ? request.processId()
                : UUID.randomUUID().toString();
        if (store.exists(c, id)) {
            throw new IllegalArgumentException(
                    "Process '" + id + "' exists already; give the new one another id, or leave the id out");
        }
        String parametersJson =
                request.createdOnCluster() ? QueryValues.encode(request.parameters(), codec, "Parameter") : null;
        ProcessStore.ProcessRow row = new ProcessStore.ProcessRow(
                id,
                request.kind().name(),
                request.createdOnCluster() ? ProcessState.INITIALIZING : ProcessState.RUNNING,
                1,
                0,
                request.queue(),
                request.nodeGroup(),
                request.retries(),
                0);
        try {
            store.insertProcess(c, row);
        } catch (SQLException e) {
            if (!storage.dialect().isUniqueViolation(e)) {
                throw e;
            }
            // The check above saw no such process, but a concurrent transaction created one with this id and
            // committed while this insert waited on its key.
            throw new IllegalArgumentException(
                    "Process '" + id + "' exists already: another transaction created it at the same time; roll"
                            + " this transaction back, and give the new process another id or leave the id out",
                    e);
        }
        store.insertTurn(c, id, 1);
        if (request.createdOnCluster()) {
            creation.enqueue(c, row, request, parametersJson);
            return id;
        }
        TurnWriter writer = new TurnWriter(c, row, 1);
        Splitter splitter = new Splitter(writer, request.batchSize());
        if (request.items() != null) {
            for (Object item : request.items()) {
                splitter.add(item);
            }
        } else {
            query = beforeQuery(c, request, query);
            long rows = request.pageKey().isEmpty()
                    ? readPages(c, request, query, splitter)
                    : readKeysetPages(c, request, query, splitter);
            store.addRowsRead(c, id, rows);
        }
        splitter.close();
        int written = writer.finish();
        if (written == 0) {
            store.closeTurn(c, id, 1, 0, 0);
            store.finish(c, id, ProcessState.SUCCEEDED, null);
        } else {
            store.advance(c, id, 1, writer.batchId, writer.lastNumber);
        }
        return id;
    }

    /**
     * Runs the request's hook, if any, and checks the query after it: a hook can change the session settings
     * that decide how the database reads quotes (such as {@code standard_conforming_strings}), so the query is
     * read as the statement that follows will be.
     */
    private PagedQuery beforeQuery(Connection c, ProcessRequest<?> request, PagedQuery checked) throws SQLException {
        if (request.hook() == null) {
            return checked;
        }
        request.hook().beforeQuery(c);
        return PagedQuery.check(request, storage.dialect().sqlQuoting(c));
    }

    /**
     * Reads the query a page at a time with LIMIT and OFFSET; each page is split and written before the next.
     *
     * @return the rows read
     */
    private long readPages(Connection c, ProcessRequest<?> request, PagedQuery query, Splitter splitter)
            throws SQLException {
        int pageSize = request.pageSize();
        try (PreparedStatement page = c.prepareStatement(query.offsetPage())) {
            List<Object> parameters = request.parameters();
            for (long offset = 0; ; offset += pageSize) {
                for (int i = 0; i < parameters.size(); i++) {
                    page.setObject(i + 1, parameters.get(i));
                }
                page.setInt(parameters.size() + 1, pageSize);
                page.setLong(parameters.size() + 2, offset);
                int rows = 0;
                try (ResultSet result = page.executeQuery()) {
                    while (result.next()) {
                        Object item = request.mapper().map(result);
                        if (item == null) {
                            throw new IllegalArgumentException("The row mapper of process '"
                                    + request.kind().name() + "' returned null for row " + (offset + rows + 1)
                                    + "; return an item");
                        }
                        splitter.add(item);
                        rows++;
                    }
                }
                if (rows < pageSize) {
                    return offset + rows;
                }
            }
        }
    }

    /**
     * Reads the query a page at a time by its key: each page is the rows after the last key of the page before,
     * so every page is one range scan of the key's index, wherever it is in the result.
     *
     * @return the rows read
     */
    private long readKeysetPages(Connection c, ProcessRequest<?> request, PagedQuery query, Splitter splitter)
            throws SQLException {
        List<String> key = request.pageKey();
        List<Object> parameters = request.parameters();
        int pageSize = request.pageSize();
        Object[] last = null;
        long read = 0;
        try (PreparedStatement first = c.prepareStatement(query.firstKeyPage());
                PreparedStatement next = c.prepareStatement(query.nextKeyPage())) {
            while (true) {
                PreparedStatement page = last == null ? first : next;
                int index = 1;
                for (Object parameter : parameters) {
                    page.setObject(index++, parameter);
                }
                if (last != null) {
                    for (int i = 0; i < key.size(); i++) {
                        for (int j = 0; j <= i; j++) {
                            page.setObject(index++, last[j]);
                        }
                    }
                }
                page.setInt(index, pageSize);
                int rows = 0;
                try (ResultSet result = page.executeQuery()) {
                    while (result.next()) {
                        Object item = request.mapper().map(result);
                        if (item == null) {
                            throw new IllegalArgumentException("The row mapper of process '"
                                    + request.kind().name() + "' returned null for row " + (read + rows + 1)
                                    + "; return an item");
                        }
                        splitter.add(item);
                        rows++;
                        if (rows == pageSize) {
                            last = keyOf(result, request);
                        }
                    }
                }
                read += rows;
                if (rows < pageSize) {
                    return read;
                }
            }
        }
    }

    /** The key of the current row, which the next page starts after. */
    private static Object[] keyOf(ResultSet row, ProcessRequest<?> request) throws SQLException {
        List<String> key = request.pageKey();
        Object[] values = new Object[key.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = row.getObject(key.get(i));
            if (values[i] == null) {
                throw new IllegalArgumentException(
                        "The query of process '" + request.kind().name() + "' gave a row" + " whose pageBy column '"
                                + key.get(i) + "' is null; page by columns that are never null");
            }
        }
        return values;
    }

    /** Cuts a stream of items into batches of a fixed size. */
    private final class Splitter {
        private final TurnWriter writer;
        private final int size;
        private List<Object> current;

        Splitter(TurnWriter writer, int size) {
            this.writer = writer;
            this.size = size;
            this.current = new ArrayList<>(size);
        }

        void add(Object item) throws SQLException {
            current.add(item);
            if (current.size() == size) {
                close();
            }
        }

        void close() throws SQLException {
            if (!current.isEmpty()) {
                writer.add(writer.lastNumber + 1, 1, encode(current));
                current = new ArrayList<>(size);
            }
        }
    }

    private String encode(List<?> items) {
        return codec.encode(items);
    }

    /**
     * Writes the batches of one turn a chunk at a time: their tasks (in the turn's Errand batch, created with its
     * analysis callback at the first chunk) and their rows.
     */
    final class TurnWriter {
        private final Connection c;
        private final ProcessStore.ProcessRow process;
        private final int turn;
        private final List<ProcessStore.NewBatch> pending = new ArrayList<>(CHUNK);
        private long batchId;
        private int lastNumber;
        private int written;

        TurnWriter(Connection c, ProcessStore.ProcessRow process, int turn) {
            this(c, process, turn, 0, 0);
        }

        /**
         * A writer that goes on with a turn whose earlier batches an earlier transaction wrote.
         *
         * @param batchId the turn's Errand batch, 0 if none yet
         * @param written how many batches the turn has
         */
        TurnWriter(Connection c, ProcessStore.ProcessRow process, int turn, long batchId, int written) {
            this.c = c;
            this.process = process;
            this.turn = turn;
            this.lastNumber = process.batches();
            this.batchId = batchId;
            this.written = written;
        }

        /** The turn's Errand batch, 0 if none yet. */
        long batchId() {
            return batchId;
        }

        /** The highest batch number of the process so far. */
        int lastNumber() {
            return lastNumber;
        }

        /** How many batches the turn has, those still pending here included once flushed. */
        int written() {
            return written;
        }

        void add(int number, int tries, String contextJson) throws SQLException {
            pending.add(new ProcessStore.NewBatch(number, tries, contextJson, 0));
            lastNumber = Math.max(lastNumber, number);
            if (pending.size() == CHUNK) {
                flush();
            }
        }

        int finish() throws SQLException {
            flush();
            store.sizeTurn(c, process.id(), turn, batchId, written);
            return written;
        }

        void flush() throws SQLException {
            if (pending.isEmpty()) {
                return;
            }
            WorkflowStore workflows = stores.workflows();
            if (batchId == 0) {
                batchId = workflows.createBatch(c, 0);
                workflows.insertCallback(
                        c,
                        batchId,
                        BatchEvent.COMPLETE.dbValue(),
                        requests.resolve(TaskRequest.builder(
                                        ProcessRegistry.turnKind(process.name()),
                                        new TurnRef(process.id(), turn, false))
                                .queue(process.queue())
                                .build()));
            }
            List<NewTask> tasks = new ArrayList<>(pending.size());
            for (ProcessStore.NewBatch batch : pending) {
                TaskRequest.Builder request = TaskRequest.builder(
                                ProcessRegistry.batchKind(process.name()),
                                new BatchRef(process.id(), turn, batch.number()))
                        .queue(process.queue());
                if (process.nodeGroup() != null) {
                    request.nodeGroup(process.nodeGroup());
                }
                tasks.add(requests.resolve(request.build()));
            }
            // Pinned to a group or not, the batch tasks go in one multi-row insert.
            long[] ids = inserter.insertAll(c, tasks, workflows.channel());
            workflows.setBatch(c, batchId, ids);
            List<ProcessStore.NewBatch> rows = new ArrayList<>(pending.size());
            for (int i = 0; i < ids.length; i++) {
                ProcessStore.NewBatch batch = pending.get(i);
                rows.add(new ProcessStore.NewBatch(batch.number(), batch.tries(), batch.contextJson(), ids[i]));
            }
            store.insertBatches(c, process.id(), turn, rows);
            written += rows.size();
            pending.clear();
        }
    }

    // ---- execution ----

    /** Runs one batch in its task's transaction; a batch that is not pending, or whose process stopped, is skipped. */
    void runBatch(BatchRef ref, TaskContext context) throws Exception {
        Connection c = context.connection();
        Optional<ProcessStore.BatchToRun> found = store.batchToRun(c, ref.process(), ref.turn(), ref.batch());
        // A batch written by a creation still under way runs at once: the turn cannot end before the creation does.
        if (found.isEmpty()
                || (found.get().processState() != ProcessState.RUNNING
                        && found.get().processState() != ProcessState.INITIALIZING)
                || !"pending".equals(found.get().state())) {
            return;
        }
        ProcessDefinition<?> definition = registry.definition(found.get().processName());
        Batch batch = new Batch(ref, found.get().tries(), c, codec);
        String error = execute(definition, found.get(), batch, c);
        if (storage.hostTransactions().isRollbackOnly()) {
            // The host framework will roll the task's transaction back whatever happens now: neither the batch's
            // success nor its failure could commit. Fail the attempt, with a clear error; the task runs it again.
            throw new IllegalStateException("The handler of batch " + ref.batch() + " (turn " + ref.turn()
                    + ") of process '" + ref.process() + "' left its transaction marked rollback-only"
                    + (error == null ? " without throwing" : " (it threw " + error + ")")
                    + ", so nothing it did can commit; this attempt counts as failed and the task runs it again."
                    + " Throw instead of marking the transaction rollback-only, or give the @Transactional method it"
                    + " calls Propagation.NESTED");
        }
        store.endBatch(c, ref, settings.nodeId(), error, batch.resultJson);
    }

    /** Runs the handler under a savepoint, so that a failing batch's writes roll back and its failure is recorded. */
    private <T> String execute(
            ProcessDefinition<T> definition, ProcessStore.BatchToRun batch, Batch context, Connection c)
            throws SQLException, InterruptedException {
        Savepoint savepoint = c.setSavepoint();
        try {
            List<T> items = decode(batch.contextJson(), definition.kind().itemType());
            definition.handler().execute(items, context);
            return null;
        } catch (InterruptedException e) {
            // The node is stopping: let the task's retry run the batch, rather than count a failure.
            throw e;
        } catch (Exception e) {
            c.rollback(savepoint);
            return describe(e);
        }
    }

    @SuppressWarnings("unchecked")
    private <T> List<T> decode(String json, Class<T> type) {
        T[] items = codec.decode(json, (Class<T[]>) Array.newInstance(type, 0).getClass());
        return Collections.unmodifiableList(Arrays.asList(items));
    }

    static String describe(Throwable e) {
        String message = e.getMessage();
        return e.getClass().getName() + (message == null ? "" : ": " + message);
    }

    /** What a batch handler sees, and the result it sets. */
    private static final class Batch implements BatchContext {
        private final BatchRef ref;
        private final int tries;
        private final Connection connection;
        private final PayloadCodec codec;
        /** The JSON of the result the handler set last, or {@code null}; read after the handler returned. */
        private volatile String resultJson;

        Batch(BatchRef ref, int tries, Connection connection, PayloadCodec codec) {
            this.ref = ref;
            this.tries = tries;
            this.connection = connection;
            this.codec = codec;
        }

        @Override
        public String processId() {
            return ref.process();
        }

        @Override
        public int turn() {
            return ref.turn();
        }

        @Override
        public int batchNumber() {
            return ref.batch();
        }

        @Override
        public int tries() {
            return tries;
        }

        @Override
        public Connection connection() {
            return connection;
        }

        @Override
        public void result(Object value) {
            String json = codec.encode(value);
            if (json != null) {
                int bytes = json.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
                if (bytes > MAX_RESULT_BYTES) {
                    throw new IllegalArgumentException("The result of batch " + ref.batch() + " (turn " + ref.turn()
                            + ") of process '" + ref.process() + "' is " + bytes + " bytes of JSON, more than the "
                            + MAX_RESULT_BYTES + " a batch result may hold; return a summary (counts, sums, ids) and"
                            + " keep larger outputs in the application's own tables");
                }
            }
            resultJson = json;
        }
    }

    /** What an analysis sees: its results are read from the turn's batches when asked for. */
    private record Analysis(String processId, int turn, Connection connection, ProcessStore store, PayloadCodec codec)
            implements AnalysisContext {

        @Override
        public java.util.SortedMap<Integer, String> batchResults() {
            try {
                return java.util.Collections.unmodifiableSortedMap(store.batchResults(connection, processId, turn));
            } catch (SQLException e) {
                throw new dev.errand.error.ErrandException(
                        "Could not read the batch results of turn " + turn + " of process '" + processId + "'", e);
            }
        }

        @Override
        public <R> java.util.SortedMap<Integer, R> batchResults(Class<R> type) {
            if (type == null) {
                throw new IllegalArgumentException("type must not be null; pass the class to read each result as,"
                        + " or call batchResults() for the JSON text");
            }
            java.util.SortedMap<Integer, R> decoded = new java.util.TreeMap<>();
            batchResults().forEach((batch, json) -> decoded.put(batch, codec.decode(json, type)));
            return java.util.Collections.unmodifiableSortedMap(decoded);
        }
    }

    // ---- analysis ----

    /**
     * Analyses a turn once its Errand batch is complete: fails the batches its tasks never ran, records the turn's
     * counts once, and then fails the process, finishes it, or starts the next turn, all in this transaction.
     */
    void analyse(TurnRef ref, TaskContext context) throws Exception {
        Connection c = context.connection();
        Optional<ProcessStore.ProcessRow> locked = store.process(c, ref.process(), true);
        if (locked.isEmpty()
                || locked.get().state() != ProcessState.RUNNING
                || locked.get().turn() != ref.turn()) {
            return;
        }
        ProcessStore.ProcessRow process = locked.get();
        if (process.nodeGroup() != null
                && !ref.relayed()
                && !settings.cluster().groups().contains(process.nodeGroup())) {
            // The batch callback is not pinned: pass the analysis on to the process's node group, in this
            // transaction, so that it runs where the process's batches run.
            inserter.insert(
                    c,
                    requests.resolve(TaskRequest.builder(
                                    ProcessRegistry.turnKind(process.name()),
                                    new TurnRef(process.id(), ref.turn(), true))
                            .queue(process.queue())
                            .nodeGroup(process.nodeGroup())
                            .build()),
                    stores.workflows().channel());
            return;
        }
        String id = process.id();
        int turn = ref.turn();
        store.failUnfinished(c, id, turn);
        int[] counts = store.countTurn(c, id, turn);
        if (!store.closeTurn(c, id, turn, counts[0], counts[1])) {
            return;
        }
        Optional<FailedBatch> exhausted = store.exhausted(c, id, turn, process.retries());
        if (exhausted.isPresent()) {
            FailedBatch batch = exhausted.get();
            store.finish(
                    c,
                    id,
                    ProcessState.FAILED,
                    "Batch " + batch.batchNumber() + " failed " + batch.tries() + " times (retries " + process.retries()
                            + "); its last error: " + batch.error());
            return;
        }
        ProcessDefinition<?> definition = registry.definition(process.name());
        TurnResult result = new TurnResult(
                turn, counts[0] + counts[1], counts[0], counts[1], store.failedBatches(c, id, turn, SHOWN_FAILURES));
        decide(c, process, definition, result);
    }

    private <T> void decide(
            Connection c, ProcessStore.ProcessRow process, ProcessDefinition<T> definition, TurnResult result)
            throws SQLException, InterruptedException {
        TurnDecision<T> decision;
        Savepoint savepoint = c.setSavepoint();
        try {
            decision = definition.handler().analyse(result, new Analysis(process.id(), result.turn(), c, store, codec));
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            c.rollback(savepoint);
            store.finish(
                    c,
                    process.id(),
                    ProcessState.FAILED,
                    "The analysis of turn " + result.turn() + " failed: " + describe(e));
            return;
        }
        if (decision == null) {
            decision = TurnDecision.finish();
        }
        if (decision.failure() != null) {
            store.finish(c, process.id(), ProcessState.FAILED, decision.failure());
        } else if (result.failed() == 0 && decision.batches().isEmpty()) {
            store.finish(c, process.id(), ProcessState.SUCCEEDED, null);
        } else {
            List<String> contexts = new ArrayList<>(decision.batches().size());
            for (List<T> batch : decision.batches()) {
                contexts.add(encode(batch));
            }
            startTurn(c, process, false, contexts);
        }
    }

    /**
     * Starts the turn after the process's current one: the current turn's failed batches (their tries counted on,
     * or from 1 again when {@code resetTries}), then new batches.
     *
     * @return how many batches the turn runs
     */
    private int startTurn(Connection c, ProcessStore.ProcessRow process, boolean resetTries, List<String> contexts)
            throws SQLException {
        int turn = process.turn() + 1;
        store.insertTurn(c, process.id(), turn);
        TurnWriter writer = new TurnWriter(c, process, turn);
        int after = 0;
        while (true) {
            List<ProcessStore.Retry> failed = store.failedAfter(c, process.id(), process.turn(), after, CHUNK);
            for (ProcessStore.Retry retry : failed) {
                writer.add(retry.number(), resetTries ? 1 : retry.tries() + 1, retry.contextJson());
                after = retry.number();
            }
            if (failed.size() < CHUNK) {
                break;
            }
        }
        for (String context : contexts) {
            writer.add(writer.lastNumber + 1, 1, context);
        }
        int written = writer.finish();
        store.advance(c, process.id(), turn, writer.batchId, writer.lastNumber);
        return written;
    }

    // ---- tasks that failed for good ----

    /**
     * The task of a batch failed for good (its attempts ran out, or its worker was lost on the last one): the
     * batch, if still pending, is failed with the task's error, on the transaction that fails the task. The turn's
     * analysis follows as for any failed batch, so the batch runs again in the next turn or fails the process.
     *
     * @param ref the task's payload, or {@code null} if it could not be read (then there is no batch to name)
     */
    void batchTaskFailed(BatchRef ref, String error, Connection c) throws SQLException {
        if (ref == null) {
            return;
        }
        store.endBatch(c, ref, null, "The batch's task failed for good: " + error, null);
    }

    /**
     * The analysis task of a turn failed for good (its attempts ran out, its worker was lost on the last one, or
     * its deadline passed): without it the turn would never end, so the process, if still running in that turn,
     * fails with the task's error, on the transaction that fails the task.
     *
     * @param ref the task's payload, or {@code null} if it could not be read (then there is no process to name)
     */
    void analysisTaskFailed(TurnRef ref, String error, Connection c) throws SQLException {
        if (ref == null) {
            return;
        }
        Optional<ProcessStore.ProcessRow> locked = store.process(c, ref.process(), true);
        if (locked.isEmpty()
                || locked.get().state() != ProcessState.RUNNING
                || locked.get().turn() != ref.turn()) {
            return;
        }
        store.finish(
                c,
                ref.process(),
                ProcessState.FAILED,
                "The analysis task of turn " + ref.turn() + " failed for good: " + error);
    }

    // ---- operators ----

    /**
     * Cancels a running or initializing process and the tasks of its turn that have not started; an initializing
     * process's creation stops before its next page.
     *
     * @param finish the ending of this transaction, which the cancelled tasks go through
     * @return empty if there is no such process; false if it was not running
     */
    public Optional<Boolean> cancel(Connection c, Finish finish, String id) throws SQLException {
        Optional<ProcessStore.ProcessRow> locked = store.process(c, id, true);
        if (locked.isEmpty()) {
            return Optional.empty();
        }
        if (!store.finish(c, id, ProcessState.CANCELLED, "Cancelled by an operator")) {
            return Optional.of(false);
        }
        if (locked.get().state() == ProcessState.INITIALIZING) {
            creation.end(c, locked.get());
        }
        if (locked.get().batchId() > 0) {
            finish.cancelBatch(c, locked.get().batchId(), "Cancelled: its process " + id + " was cancelled");
        }
        return Optional.of(true);
    }

    /**
     * Deletes an ended process with its turns and batches.
     *
     * @return empty if there is no such process; false if it is running or initializing (nothing deleted)
     */
    public Optional<Boolean> delete(Connection c, String id) throws SQLException {
        Optional<ProcessStore.ProcessRow> locked = store.process(c, id, true);
        if (locked.isEmpty()) {
            return Optional.empty();
        }
        if (!locked.get().state().isFinal()) {
            return Optional.of(false);
        }
        store.delete(c, id);
        return Optional.of(true);
    }

    /**
     * Runs the failed batches of a failed process's last turn again in a new turn.
     *
     * @return empty if there is no such process; else how many batches run again
     */
    public Optional<Integer> rerunFailed(Connection c, String id) throws SQLException {
        Optional<ProcessStore.ProcessRow> locked = store.process(c, id, true);
        if (locked.isEmpty()) {
            return Optional.empty();
        }
        ProcessStore.ProcessRow process = locked.get();
        if (process.state() != ProcessState.FAILED || store.countTurn(c, id, process.turn())[1] == 0) {
            return Optional.of(0);
        }
        return Optional.of(startTurn(c, process, true, List.of()));
    }
}
