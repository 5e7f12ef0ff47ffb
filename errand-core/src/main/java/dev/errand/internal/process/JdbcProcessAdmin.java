package dev.errand.internal.process;

import dev.errand.config.Names;
import dev.errand.config.TimeLimits;
import dev.errand.error.ErrandException;
import dev.errand.internal.store.Jdbc;
import dev.errand.internal.workflow.Finish;
import dev.errand.process.FailedBatch;
import dev.errand.process.ProcessAdmin;
import dev.errand.process.ProcessInfo;
import dev.errand.process.ProcessRequest;
import dev.errand.process.ProcessState;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/** The process admin API on a node's storage; each call without a connection is one transaction. */
public final class JdbcProcessAdmin implements ProcessAdmin {

    private static final long POLL_MILLIS = 100;

    /** How many processes one transaction of {@link #deleteFinishedBefore} deletes. */
    private static final int DELETE_CHUNK = 100;

    private final ProcessRuntime runtime;
    private final Consumer<String> wakeUp;

    /**
     * Creates the admin API.
     *
     * @param runtime the node's process runtime
     * @param wakeUp wakes this node's poller of a queue after a commit
     */
    public JdbcProcessAdmin(ProcessRuntime runtime, Consumer<String> wakeUp) {
        this.runtime = runtime;
        this.wakeUp = wakeUp;
    }

    @Override
    public String start(Connection connection, ProcessRequest<?> request) {
        if (connection == null) {
            throw new IllegalArgumentException("connection must not be null: pass the connection of the"
                    + " transaction the process belongs to, or use start(request)");
        }
        requireRequest(request);
        try {
            boolean autoCommit = connection.getAutoCommit();
            String id = Jdbc.atomically(connection, c -> runtime.start(c, request));
            if (autoCommit) {
                wakeUp.accept(request.queue());
            }
            return id;
        } catch (SQLException e) {
            throw new ErrandException("startProcess", e);
        }
    }

    @Override
    public String start(ProcessRequest<?> request) {
        requireRequest(request);
        String id = run("startProcess", c -> runtime.start(c, request));
        wakeUp.accept(request.queue());
        return id;
    }

    @Override
    public Optional<ProcessInfo> find(String processId) {
        requireId(processId);
        return run("findProcess", c -> runtime.store().info(c, processId));
    }

    @Override
    public List<ProcessInfo> list(ProcessState state, int limit) {
        if (limit < 1 || limit > 1_000) {
            throw new IllegalArgumentException("limit must be between 1 and 1000, was " + limit);
        }
        return run("listProcesses", c -> runtime.store().list(c, state, limit));
    }

    @Override
    public List<FailedBatch> failedBatches(String processId, int limit) {
        requireId(processId);
        if (limit < 1 || limit > 10_000) {
            throw new IllegalArgumentException("limit must be between 1 and 10000, was " + limit);
        }
        return run("failedBatches", c -> runtime.store().failedBatches(c, processId, 0, limit));
    }

    @Override
    public ProcessInfo wait(String processId, Duration timeout) throws InterruptedException {
        requireId(processId);
        if (timeout == null || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be zero or more, was " + timeout);
        }
        // Elapsed time against the budget: a start plus a budget of ~292 years would overflow.
        long budget = TimeLimits.nanosOf(timeout);
        long start = System.nanoTime();
        while (true) {
            ProcessInfo info = find(processId).orElseThrow(() -> noSuchProcess(processId));
            long left = budget - (System.nanoTime() - start);
            if (info.state().isFinal() || left <= 0) {
                return info;
            }
            Thread.sleep(Math.min(POLL_MILLIS, Math.max(1, left / 1_000_000)));
        }
    }

    @Override
    public boolean cancel(String processId) {
        requireId(processId);
        try (Finish finish = runtime.openFinish()) {
            return run("cancelProcess", c -> runtime.cancel(c, finish, processId))
                    .orElseThrow(() -> noSuchProcess(processId));
        }
    }

    @Override
    public int rerunFailed(String processId) {
        requireId(processId);
        int rerun = run("rerunFailedBatches", c -> runtime.rerunFailed(c, processId))
                .orElseThrow(() -> noSuchProcess(processId));
        if (rerun > 0) {
            wakeUp.accept(queueOf(processId));
        }
        return rerun;
    }

    @Override
    public boolean delete(String processId) {
        requireId(processId);
        Optional<Boolean> deleted = run("deleteProcess", c -> runtime.delete(c, processId));
        if (deleted.isPresent() && !deleted.get()) {
            throw new IllegalArgumentException("Process " + Names.echo(processId) + " is running; cancel it first"
                    + " with cancel(" + Names.echo(processId) + "), then delete it");
        }
        return deleted.orElse(false);
    }

    @Override
    public int deleteFinishedBefore(Instant before) {
        if (before == null) {
            throw new IllegalArgumentException(
                    "before must not be null: pass the instant processes must have ended before to be deleted");
        }
        TimeLimits.requireInstant("before", before);
        int deleted = 0;
        while (true) {
            // {deleted, read}: a chunk read short was the last one.
            int[] round = run("deleteFinishedProcesses", c -> {
                List<String> ids = runtime.store().endedBefore(c, before, DELETE_CHUNK);
                int gone = 0;
                for (String id : ids) {
                    // Locked and checked again: a process rerun since the read is running and stays.
                    if (runtime.delete(c, id).orElse(false)) {
                        gone++;
                    }
                }
                return new int[] {gone, ids.size()};
            });
            deleted += round[0];
            if (round[1] < DELETE_CHUNK) {
                return deleted;
            }
        }
    }

    private String queueOf(String processId) {
        return run("processQueue", c -> runtime.store()
                .process(c, processId, false)
                .map(row -> row.queue())
                .orElse("default"));
    }

    private static void requireRequest(ProcessRequest<?> request) {
        if (request == null) {
            throw new IllegalArgumentException("request must not be null: build one with ProcessRequest.builder(kind)");
        }
    }

    /** An id that no process can have (blank, padded, too long, with a control character) is a caller's error. */
    private static void requireId(String processId) {
        try {
            Names.require("Process id", processId, ProcessRequest.MAX_ID_LENGTH);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + "; pass the id start(...) returned", e);
        }
    }

    private static IllegalArgumentException noSuchProcess(String processId) {
        return new IllegalArgumentException("There is no process " + Names.echo(processId));
    }

    private <T> T run(String operation, Jdbc.ConnectionWork<T> work) {
        try {
            return runtime.storage().transactions().run(operation, work);
        } catch (SQLException e) {
            throw new ErrandException(operation, e);
        }
    }
}
