package dev.errand.internal.engine;

import dev.errand.spi.TaskListener;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Fans events out to several listeners; a listener that throws is logged and skipped. */
public final class TaskListeners implements TaskListener {

    private static final Logger log = LoggerFactory.getLogger(TaskListeners.class);

    private final List<TaskListener> listeners;

    /** Wraps the given listeners. */
    public TaskListeners(List<TaskListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    @Override
    public void enqueued(String kind, String queue, int count) {
        each(l -> l.enqueued(kind, queue, count));
    }

    @Override
    public void started(String kind, String queue, int attempt) {
        each(l -> l.started(kind, queue, attempt));
    }

    @Override
    public void succeeded(String kind, String queue, Duration duration) {
        each(l -> l.succeeded(kind, queue, duration));
    }

    @Override
    public void retried(String kind, String queue, int attempt) {
        each(l -> l.retried(kind, queue, attempt));
    }

    @Override
    public void failed(String kind, String queue, int attempt) {
        each(l -> l.failed(kind, queue, attempt));
    }

    @Override
    public void rescued(String kind, String queue) {
        each(l -> l.rescued(kind, queue));
    }

    @Override
    public void lockConflictRetried(String operation) {
        each(l -> l.lockConflictRetried(operation));
    }

    private void each(Consumer<TaskListener> event) {
        for (TaskListener listener : listeners) {
            try {
                event.accept(listener);
            } catch (RuntimeException e) {
                log.warn("Task listener {} threw; ignoring it for this event", listener, e);
            }
        }
    }
}
