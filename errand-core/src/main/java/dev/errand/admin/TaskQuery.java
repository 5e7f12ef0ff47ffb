package dev.errand.admin;

import dev.errand.config.Names;
import dev.errand.task.TaskKind;
import dev.errand.task.TaskState;

/**
 * A filter and page for listing or counting tasks. Every filter is optional; tasks are listed by id.
 * Build one with {@link #builder()}; {@link #all()} matches everything.
 */
public final class TaskQuery extends PagedQuery {

    /** The largest page size. */
    public static final int MAX_LIMIT = PageRequest.MAX_LIMIT;

    private final TaskState state;
    private final String kind;
    private final String queue;

    private TaskQuery(Builder builder, PageRequest page) {
        super(page);
        this.state = builder.state;
        this.kind = builder.kind;
        this.queue = builder.queue;
    }

    /** A query for every task, first page of 50. */
    public static TaskQuery all() {
        return builder().build();
    }

    /** Starts a query. */
    public static Builder builder() {
        return new Builder();
    }

    /** The state filter, or {@code null}. */
    public TaskState state() {
        return state;
    }

    /** The kind filter, or {@code null}. */
    public String kind() {
        return kind;
    }

    /** The queue filter, or {@code null}. */
    public String queue() {
        return queue;
    }

    /** Builds a {@link TaskQuery}. */
    public static final class Builder extends PagedQuery.Builder<Builder> {
        private TaskState state;
        private String kind;
        private String queue;

        private Builder() {}

        /** Only tasks in this state. */
        public Builder state(TaskState state) {
            if (state == null) {
                throw new IllegalArgumentException("state must not be null; omit it to match every state");
            }
            this.state = state;
            return this;
        }

        /** Only tasks of this kind. */
        public Builder kind(String kind) {
            this.kind = Names.require("kind filter", kind, TaskKind.MAX_NAME_LENGTH);
            return this;
        }

        /** Only tasks in this queue. */
        public Builder queue(String queue) {
            this.queue = Names.require("queue filter", queue, 100);
            return this;
        }

        /** Builds the query. */
        public TaskQuery build() {
            return new TaskQuery(this, pageRequest());
        }
    }
}
