package dev.errand.internal.process;

import dev.errand.enqueue.TaskRequest;
import dev.errand.internal.store.Dialect;
import dev.errand.internal.workflow.Finish;
import dev.errand.process.ProcessDefinition;
import dev.errand.process.ProcessRequest;
import dev.errand.process.ProcessState;
import dev.errand.process.RowMapper;
import dev.errand.spi.PayloadCodec;
import dev.errand.task.TaskContext;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates processes on the cluster. {@code start} stores the query with the process, which is
 * {@code initializing}, and enqueues a task of the process; the task, on any node that registers the process,
 * reads the query a page at a time, each page in a transaction of its own that locks the process row, reads the
 * resume point (the key of the last row read, or the rows read for OFFSET paging), writes the page's batches and
 * their tasks, and moves the resume point on. A node that dies in a page leaves nothing of it; the task's rescue
 * resumes after the last page committed, and since the resume point is read under the process row's lock, even a
 * late node that wakes up cannot write a page twice. The last page makes the process {@code running}.
 */
final class ProcessCreation {

    private static final Logger log = LoggerFactory.getLogger(ProcessCreation.class);

    private final ProcessRuntime runtime;
    private final ProcessRegistry registry;
    private final PayloadCodec codec;

    ProcessCreation(ProcessRuntime runtime, ProcessRegistry registry, PayloadCodec codec) {
        this.runtime = runtime;
        this.registry = registry;
        this.codec = codec;
    }

    /**
     * Rows per page on the cluster: the page size rounded up to whole batches, so that every batch but the last is
     * full even though each page's batches are written in a transaction of their own.
     */
    static int pageRows(int pageSize, int batchSize) {
        long rows = ((long) pageSize + batchSize - 1) / batchSize * batchSize;
        return (int) Math.min(rows, Integer.MAX_VALUE);
    }

    /** Stores the creation of a process that {@code start} inserted, and enqueues its task, on the caller's connection. */
    void enqueue(Connection c, ProcessStore.ProcessRow process, ProcessRequest<?> request, String parametersJson)
            throws SQLException {
        runtime.store()
                .insertCreation(
                        c,
                        process.id(),
                        new ProcessStore.Creation(
                                request.sql(),
                                parametersJson,
                                request.pageKey(),
                                pageRows(request.pageSize(), request.batchSize()),
                                request.batchSize(),
                                null,
                                0));
        TaskRequest.Builder task = TaskRequest.builder(
                        ProcessRegistry.createKind(process.name()), new CreationRef(process.id()))
                .queue(process.queue());
        if (process.nodeGroup() != null) {
            task.nodeGroup(process.nodeGroup());
        }
        runtime.inserter().insert(c, runtime.requests().resolve(task.build()), runtime.channel());
    }

    /**
     * Runs a creation to its end, a page per transaction, or until the node stops (the task's retry resumes it).
     * A query or row mapper that fails fails the process with its error.
     */
    void run(CreationRef ref, TaskContext context) throws Exception {
        while (true) {
            if (Thread.currentThread().isInterrupted() || context.isCancelled()) {
                throw new InterruptedException("The creation of process '" + ref.process() + "' stopped between"
                        + " pages; its task resumes it after the last page written");
            }
            Page page;
            try {
                page = runtime.storage().transactions().run("processCreation", c -> page(c, ref.process()));
            } catch (InputFailed failed) {
                fail(ref.process(), failed.getMessage(), failed.getCause());
                return;
            }
            if (page.done()) {
                if (page.batchId() > 0) {
                    // Batches written earlier may all have ended before the last page sized the turn.
                    runtime.recheck(page.batchId());
                }
                return;
            }
        }
    }

    /** What a page did. */
    private record Page(boolean done, long batchId) {}

    /** The query or the row mapper failed: the process's input is at fault, not the node. */
    private static final class InputFailed extends RuntimeException {
        InputFailed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private Page page(Connection c, String id) throws SQLException {
        ProcessStore store = runtime.store();
        Optional<ProcessStore.ProcessRow> locked = store.process(c, id, true);
        if (locked.isEmpty() || locked.get().state() != ProcessState.INITIALIZING) {
            // Cancelled, failed or deleted meanwhile, or created already: nothing left to do.
            return new Page(true, 0);
        }
        ProcessStore.ProcessRow process = locked.get();
        Optional<ProcessStore.Creation> found = store.creation(c, id);
        if (found.isEmpty()) {
            throw new IllegalStateException("Process '" + id + "' is initializing but has no creation row");
        }
        ProcessStore.Creation creation = found.get();
        ProcessDefinition<?> definition = registry.definition(process.name());
        if (definition == null || definition.rowMapper() == null) {
            // This node cannot read the page; the task's retry may run on a node that can.
            throw new IllegalStateException("Process '" + process.name() + "' is not registered with a row mapper on"
                    + " this node; register ProcessDefinition...withRowMapper(...) on every node that may create it");
        }
        Read read = read(c, process, creation, definition.rowMapper());
        ProcessRuntime.TurnWriter writer = runtime.new TurnWriter(c, process, 1, process.batchId(), process.batches());
        for (String batch : read.batches()) {
            writer.add(writer.lastNumber() + 1, 1, batch);
        }
        String lastKey = read.lastKeyJson() != null ? read.lastKeyJson() : creation.lastKeyJson();
        if (read.rows() == creation.pageRows()) {
            writer.flush();
            // One more than written: the turn's Errand batch cannot end while more batches may come.
            store.sizeTurn(c, id, 1, writer.batchId(), writer.written(), writer.written() + 1L);
            store.creationPage(c, id, lastKey, read.rows(), writer.batchId(), writer.lastNumber());
            return new Page(false, 0);
        }
        int written = writer.finish();
        store.creationPage(c, id, lastKey, read.rows(), writer.batchId(), writer.lastNumber());
        store.deleteCreation(c, id);
        if (written == 0) {
            store.closeTurn(c, id, 1, 0, 0);
            store.finish(c, id, ProcessState.SUCCEEDED, null);
        } else {
            store.advance(c, id, 1, writer.batchId(), writer.lastNumber());
        }
        log.info(
                "Process '{}' ({}) is created: {} rows in {} batches",
                id,
                process.name(),
                creation.rowsRead() + read.rows(),
                written);
        return new Page(true, writer.batchId());
    }

    /** A page read: its rows, its items cut into batches as JSON, and the key of its last row when paged by key. */
    private record Read(int rows, List<String> batches, String lastKeyJson) {}

    /** Reads and maps one page; a failure of the query or the mapper is the input's, a lost connection is not. */
    private Read read(
            Connection c, ProcessStore.ProcessRow process, ProcessStore.Creation creation, RowMapper<?> mapper)
            throws SQLException {
        Dialect dialect = runtime.storage().dialect();
        long before = creation.rowsRead();
        try {
            // Checked on every page, as this page's session reads SQL: the pool's sessions may differ.
            PagedQuery query =
                    PagedQuery.check(process.name(), creation.sql(), creation.pageKey(), dialect.sqlQuoting(c));
            List<Object> parameters = QueryValues.decode(creation.parametersJson(), codec);
            List<String> key = creation.pageKey();
            Object[] last = creation.lastKeyJson() == null
                    ? null
                    : QueryValues.decode(creation.lastKeyJson(), codec).toArray();
            String sql = key.isEmpty() ? query.offsetPage() : last == null ? query.firstKeyPage() : query.nextKeyPage();
            List<String> batches = new ArrayList<>();
            List<Object> batch = new ArrayList<>(creation.batchSize());
            int rows = 0;
            Object[] lastOfPage = null;
            try (PreparedStatement page = c.prepareStatement(sql)) {
                int index = 1;
                for (Object parameter : parameters) {
                    page.setObject(index++, parameter);
                }
                if (!key.isEmpty() && last != null) {
                    for (int i = 0; i < key.size(); i++) {
                        for (int j = 0; j <= i; j++) {
                            page.setObject(index++, last[j]);
                        }
                    }
                }
                page.setInt(index++, creation.pageRows());
                if (key.isEmpty()) {
                    page.setLong(index, before);
                }
                try (ResultSet result = page.executeQuery()) {
                    while (result.next()) {
                        Object item = mapper.map(result);
                        if (item == null) {
                            throw new IllegalArgumentException("The row mapper of process '" + process.name()
                                    + "' returned null for row " + (before + rows + 1) + "; return an item");
                        }
                        rows++;
                        batch.add(item);
                        if (batch.size() == creation.batchSize()) {
                            batches.add(codec.encode(batch));
                            batch = new ArrayList<>(creation.batchSize());
                        }
                        if (!key.isEmpty() && rows == creation.pageRows()) {
                            lastOfPage = keyOf(result, key, process.name());
                        }
                    }
                }
            }
            if (!batch.isEmpty()) {
                batches.add(codec.encode(batch));
            }
            String lastKeyJson =
                    lastOfPage == null ? null : QueryValues.encode(Arrays.asList(lastOfPage), codec, "Key column");
            return new Read(rows, batches, lastKeyJson);
        } catch (SQLException e) {
            if (dialect.isConnectionFailure(e)
                    || dialect.isLockConflict(e)
                    || Thread.currentThread().isInterrupted()) {
                // The node's fault, or its stop: the task's next attempt reads the page again.
                throw e;
            }
            throw new InputFailed(failure(process, before, e), e);
        } catch (RuntimeException e) {
            if (Thread.currentThread().isInterrupted()) {
                throw e;
            }
            throw new InputFailed(failure(process, before, e), e);
        }
    }

    private static String failure(ProcessStore.ProcessRow process, long before, Throwable e) {
        return "The creation of process '" + process.id() + "' failed reading its query after " + before + " rows: "
                + ProcessRuntime.describe(e);
    }

    private static Object[] keyOf(ResultSet row, List<String> key, String process) throws SQLException {
        Object[] values = new Object[key.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = row.getObject(key.get(i));
            if (values[i] == null) {
                throw new IllegalArgumentException("The query of process '" + process + "' gave a row whose pageBy"
                        + " column '" + key.get(i) + "' is null; page by columns that are never null");
            }
        }
        return values;
    }

    /** Fails an initializing process whose input failed, cancelling the batch tasks it wrote that have not started. */
    private void fail(String id, String error, Throwable cause) throws SQLException {
        boolean failed;
        try (Finish finish = runtime.openFinish()) {
            failed = runtime.storage().transactions().run("processCreationFailed", c -> {
                Optional<ProcessStore.ProcessRow> locked = runtime.store().process(c, id, true);
                if (locked.isEmpty() || locked.get().state() != ProcessState.INITIALIZING) {
                    return false;
                }
                runtime.store().finish(c, id, ProcessState.FAILED, error);
                end(c, locked.get());
                if (locked.get().batchId() > 0) {
                    finish.cancelBatch(c, locked.get().batchId(), "Cancelled: the creation of its process failed");
                }
                return true;
            });
        }
        if (failed) {
            log.warn("{}; the process has failed", error, cause);
        }
    }

    /**
     * Ends a creation that will write no more (its process was cancelled or failed): deletes its row and sizes the
     * turn's Errand batch to the batches written, so that the batch ends once their tasks have.
     */
    void end(Connection c, ProcessStore.ProcessRow process) throws SQLException {
        runtime.store().deleteCreation(c, process.id());
        if (process.batchId() > 0) {
            runtime.store().sizeTurn(c, process.id(), 1, process.batchId(), process.batches());
        }
    }

    /**
     * The creation's task failed for good (its attempts ran out or its deadline passed): without it the process
     * would stay initializing, so it fails with the task's error, on the transaction that fails the task.
     *
     * @param ref the task's payload, or {@code null} if it could not be read
     */
    void taskFailed(CreationRef ref, String error, Connection c) throws SQLException {
        if (ref == null) {
            return;
        }
        Optional<ProcessStore.ProcessRow> locked = runtime.store().process(c, ref.process(), true);
        if (locked.isEmpty() || locked.get().state() != ProcessState.INITIALIZING) {
            return;
        }
        runtime.store().finish(c, ref.process(), ProcessState.FAILED, "The creation task failed for good: " + error);
        end(c, locked.get());
        log.warn("The creation task of process '{}' failed for good: {}; the process has failed", ref.process(), error);
    }
}
