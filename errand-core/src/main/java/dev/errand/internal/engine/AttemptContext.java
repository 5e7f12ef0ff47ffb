package dev.errand.internal.engine;

import dev.errand.enqueue.TaskRequest;
import dev.errand.internal.store.NewTask;
import dev.errand.spi.ClaimedTask;
import dev.errand.task.ContinueOptions;
import dev.errand.task.ProcessingLog;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskKind;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** The {@link TaskContext} of one attempt. */
final class AttemptContext implements TaskContext {

    private final ClaimedTask task;
    private final Connection connection;
    private final ProcessingLog log;
    private final Function<TaskRequest, NewTask> requests;
    private final List<NewTask> continuations = new ArrayList<>(1);
    private final ProgressReporter progress;
    private volatile boolean cancelled;

    AttemptContext(
            ClaimedTask task,
            Connection connection,
            ProcessingLog log,
            Function<TaskRequest, NewTask> requests,
            ProgressReporter progress) {
        this.task = task;
        this.progress = progress;
        this.connection = connection;
        this.log = log;
        this.requests = requests;
    }

    @Override
    public <P> void continueWith(TaskKind<P> kind, P payload) {
        add(TaskRequest.builder(kind, payload).queue(task.queue()).build());
    }

    @Override
    public void continueWith(String kind, Object payload) {
        add(TaskRequest.builder(kind, payload).queue(task.queue()).build());
    }

    @Override
    public <P> void continueWith(TaskKind<P> kind, P payload, ContinueOptions options) {
        add(withOptions(TaskRequest.builder(kind, payload), options));
    }

    @Override
    public void continueWith(String kind, Object payload, ContinueOptions options) {
        add(withOptions(TaskRequest.builder(kind, payload), options));
    }

    /** Applies the options to a request; {@code TaskRequest.Builder} checks what the options did not. */
    private TaskRequest withOptions(TaskRequest.Builder next, ContinueOptions options) {
        if (options == null) {
            throw new IllegalArgumentException(
                    "options must not be null; use continueWith(kind, payload) for a step without options");
        }
        next.queue(options.queue().orElse(task.queue()));
        options.delay().ifPresent(next::delay);
        options.runAt().ifPresent(next::runAt);
        options.priority().ifPresent(next::priority);
        options.maxAttempts().ifPresent(next::maxAttempts);
        options.node().ifPresent(next::node);
        options.nodeGroup().ifPresent(next::nodeGroup);
        options.uniqueKey().ifPresent(next::uniqueKey);
        options.expiresIn().ifPresent(next::expiresIn);
        return next.build();
    }

    private void add(TaskRequest next) {
        NewTask resolved = requests.apply(next);
        synchronized (continuations) {
            continuations.add(resolved);
        }
    }

    /** The continuations the handler asked for, in order. */
    List<NewTask> continuations() {
        synchronized (continuations) {
            return List.copyOf(continuations);
        }
    }

    /** This attempt's processing log, or {@code null} when processing logs are off. */
    ProcessingLog processingLog() {
        return log;
    }

    @Override
    public void log(String line) {
        if (log != null) {
            log.append(line);
        }
    }

    @Override
    public void progress(long done, long total, String message) {
        progress.report(done, total, message);
    }

    /** The handler returned or threw: later progress reports are refused. */
    void ended() {
        progress.close();
    }

    @Override
    public long taskId() {
        return task.id();
    }

    @Override
    public String kind() {
        return task.kind();
    }

    @Override
    public String queue() {
        return task.queue();
    }

    @Override
    public int attempt() {
        return task.attempt();
    }

    @Override
    public int maxAttempts() {
        return task.maxAttempts();
    }

    @Override
    public Connection connection() {
        if (connection == null) {
            throw new IllegalStateException("Task kind '" + task.kind() + "' runs NON_TRANSACTIONAL and has no"
                    + " transaction; register it with ExecutionMode.TRANSACTIONAL to write in the completing"
                    + " transaction");
        }
        return connection;
    }

    @Override
    public boolean isCancelled() {
        return cancelled;
    }

    /** An operator asked to cancel the task. */
    void cancel() {
        cancelled = true;
    }
}
