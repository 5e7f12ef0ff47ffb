package dev.errand.admin;

import dev.errand.config.Names;
import dev.errand.task.TaskKind;
import dev.errand.task.TaskState;

/**
 * A filter and page for listing or counting tasks. Every filter is optional; tasks are listed by id.
 * Build one with {@link #builder()}; {@link #all()} matches everything.
 */
public final class TaskQuery {

    /** The largest page size. */
    public static final int MAX_LIMIT = 1_000;

    private final TaskState state;
    private final String kind;
    private final String queue;
    private final int offset;
    private final int limit;

    private TaskQuery(Builder builder) {
        this.state = builder.state;
        this.kind = builder.kind;
        this.queue = builder.queue;
        this.offset = builder.offset;
        this.limit = builder.limit;
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

    /** How many matches to skip. */
    public int offset() {
        return offset;
    }

    /** The page size. */
    public int limit() {
        return limit;
    }

    /** Builds a {@link TaskQuery}. */
    public static final class Builder {
        private TaskState state;
        private String kind;
        private String queue;
        private int offset;
        private int limit = 50;

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

        /** Skips this many matches (0 or more). */
        public Builder offset(int offset) {
            if (offset < 0) {
                throw new IllegalArgumentException("offset must be 0 or more, got " + offset);
            }
            this.offset = offset;
            return this;
        }

        /** Sets the page size (1 to 1000; default 50). */
        public Builder limit(int limit) {
            if (limit < 1 || limit > MAX_LIMIT) {
                throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", got " + limit);
            }
            this.limit = limit;
            return this;
        }

        /** Builds the query. */
        public TaskQuery build() {
            return new TaskQuery(this);
        }
    }
}
