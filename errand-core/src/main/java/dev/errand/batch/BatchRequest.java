package dev.errand.batch;

import dev.errand.enqueue.TaskRequest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * A batch to enqueue: its tasks and its callbacks. Each callback is a task of its own, enqueued once when
 * its {@link BatchEvent} happens; it is built from the batch's id, so that its payload can name the batch.
 *
 * <pre>{@code
 * BatchRequest batch = BatchRequest.builder()
 *         .addAll(rows.stream().map(row -> TaskRequest.of(IMPORT_ROW, row)).toList())
 *         .on(BatchEvent.COMPLETE, id -> TaskRequest.of(REPORT, new Report(id)))
 *         .build();
 * }</pre>
 */
public final class BatchRequest {

    private final List<TaskRequest> tasks;
    private final Map<BatchEvent, LongFunction<TaskRequest>> callbacks;

    private BatchRequest(Builder builder) {
        this.tasks = List.copyOf(builder.tasks);
        this.callbacks = Map.copyOf(builder.callbacks);
    }

    /** Starts a batch. */
    public static Builder builder() {
        return new Builder();
    }

    /** The tasks, in order. */
    public List<TaskRequest> tasks() {
        return tasks;
    }

    /** The callbacks by event. */
    public Map<BatchEvent, LongFunction<TaskRequest>> callbacks() {
        return callbacks;
    }

    /** Builds a {@link BatchRequest}. */
    public static final class Builder {
        private final List<TaskRequest> tasks = new ArrayList<>();
        private final Map<BatchEvent, LongFunction<TaskRequest>> callbacks = new EnumMap<>(BatchEvent.class);

        private Builder() {}

        /**
         * Adds a task. It may have conditions and a deadline, but no unique key: a request that a unique key
         * deduplicated would not be part of the batch.
         *
         * @throws IllegalArgumentException if the request is null or has a unique key
         */
        public Builder add(TaskRequest task) {
            if (task == null) {
                throw new IllegalArgumentException(
                        "task must not be null: build one with TaskRequest.of(kind, payload)");
            }
            if (task.uniqueKey() != null) {
                throw new IllegalArgumentException("A batch's tasks cannot have a unique key (task of kind '"
                        + task.kind() + "' has '" + task.uniqueKey() + "'); enqueue it outside the batch, or drop"
                        + " the key");
            }
            tasks.add(task);
            return this;
        }

        /**
         * Adds tasks, in order.
         *
         * @throws IllegalArgumentException if the collection or one of its requests is null, or one has a
         *     unique key
         */
        public Builder addAll(Collection<TaskRequest> more) {
            if (more == null) {
                throw new IllegalArgumentException("tasks must not be null");
            }
            more.forEach(this::add);
            return this;
        }

        /**
         * Sets the callback for {@code event}: a task built from the batch's id, enqueued once when the event
         * happens. Setting it again replaces it.
         *
         * @throws IllegalArgumentException if an argument is null
         */
        public Builder on(BatchEvent event, LongFunction<TaskRequest> callback) {
            if (event == null || callback == null) {
                throw new IllegalArgumentException("event and callback must not be null: pass, for example,"
                        + " on(BatchEvent.COMPLETE, batchId -> TaskRequest.of(kind, payload))");
            }
            callbacks.put(event, callback);
            return this;
        }

        /**
         * Builds the batch.
         *
         * @throws IllegalArgumentException if it has no task
         */
        public BatchRequest build() {
            if (tasks.isEmpty()) {
                throw new IllegalArgumentException("A batch needs at least one task; add them with add(request)");
            }
            return new BatchRequest(this);
        }
    }
}
