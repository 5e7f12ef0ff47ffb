package dev.errand.admin;

import dev.errand.config.Names;
import dev.errand.config.TimeLimits;
import dev.errand.task.TaskKind;
import dev.errand.task.TaskState;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;

/**
 * A filter and page for listing or counting tasks. Every filter is optional, and filters combine with AND. A
 * page is chosen by offset ({@link Builder#offset(int)}) or by keyset ({@link Builder#after(long)},
 * {@link Builder#before(long)}, for {@link TaskAdmin#listKeyset(TaskQuery)}), not both. Build one with
 * {@link #builder()}; {@link #all()} matches everything. Immutable.
 */
public final class TaskQuery extends PagedQuery {

    /** The largest page size. */
    public static final int MAX_LIMIT = PageRequest.MAX_LIMIT;

    /** The longest text {@link Builder#errorContains(String)} takes. */
    public static final int MAX_ERROR_TEXT = 200;

    private final Set<TaskState> states;
    private final String kind;
    private final String queue;
    private final String leaseOwner;
    private final String errorContains;
    private final Range created;
    private final Range runAt;
    private final Range finished;
    private final Duration finishedWithin;
    private final Long after;
    private final Long before;
    private final TaskOrder order;

    private TaskQuery(Builder builder, PageRequest page) {
        super(page);
        this.states = builder.states.isEmpty() ? Set.of() : Set.copyOf(builder.states);
        this.kind = builder.kind;
        this.queue = builder.queue;
        this.leaseOwner = builder.leaseOwner;
        this.errorContains = builder.errorContains;
        this.created = builder.created;
        this.runAt = builder.runAt;
        this.finished = builder.finished;
        this.finishedWithin = builder.finishedWithin;
        this.after = builder.after;
        this.before = builder.before;
        this.order = builder.order;
    }

    /**
     * A time range {@code [from, before)} on one of the task's times; either end may be null (open).
     *
     * @param from the earliest instant included, or null
     * @param before the first instant excluded, or null
     */
    public record Range(Instant from, Instant before) {}

    /** A query for every task, first page of 50. */
    public static TaskQuery all() {
        return builder().build();
    }

    /** Starts a query. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this query's filters, page and order, to change some of them. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.states.addAll(states);
        builder.kind = kind;
        builder.queue = queue;
        builder.leaseOwner = leaseOwner;
        builder.errorContains = errorContains;
        builder.created = created;
        builder.runAt = runAt;
        builder.finished = finished;
        builder.finishedWithin = finishedWithin;
        builder.after = after;
        builder.before = before;
        builder.order = order;
        return builder.page(page());
    }

    /**
     * The query of the page after {@code page} (which this query listed), or null if none follows.
     */
    public TaskQuery next(KeysetPage<?> page) {
        if (page == null || page.next() == null) {
            return null;
        }
        Builder next = toBuilder().clearCursors();
        return (order == TaskOrder.ID_ASCENDING ? next.after(page.next()) : next.before(page.next())).build();
    }

    /**
     * The query of the page before {@code page} (which this query listed), or null if none comes before.
     */
    public TaskQuery previous(KeysetPage<?> page) {
        if (page == null || page.previous() == null) {
            return null;
        }
        Builder previous = toBuilder().clearCursors();
        return (order == TaskOrder.ID_ASCENDING ? previous.before(page.previous()) : previous.after(page.previous()))
                .build();
    }

    /** The only state the query matches, or {@code null} if it matches every state or several. */
    public TaskState state() {
        return states.size() == 1 ? states.iterator().next() : null;
    }

    /** The states the query matches; empty for every state. */
    public Set<TaskState> states() {
        return states;
    }

    /** The kind filter, or {@code null}. */
    public String kind() {
        return kind;
    }

    /** The queue filter, or {@code null}. */
    public String queue() {
        return queue;
    }

    /** The lease owner (node id) filter, or {@code null}. */
    public String leaseOwner() {
        return leaseOwner;
    }

    /** The text the last error must contain, or {@code null}. */
    public String errorContains() {
        return errorContains;
    }

    /** The range of {@code created_at}, or {@code null}. */
    public Range created() {
        return created;
    }

    /** The range of {@code run_at}, or {@code null}. */
    public Range runAt() {
        return runAt;
    }

    /** The range of {@code finished_at}, or {@code null}. */
    public Range finished() {
        return finished;
    }

    /** How recently, on the database's clock, the tasks must have ended, or {@code null}. */
    public Duration finishedWithin() {
        return finishedWithin;
    }

    /** Only ids greater than this, or {@code null}. */
    public Long after() {
        return after;
    }

    /** Only ids less than this, or {@code null}. */
    public Long before() {
        return before;
    }

    /** The listing order. */
    public TaskOrder order() {
        return order;
    }

    /** Builds a {@link TaskQuery}. */
    public static final class Builder extends PagedQuery.Builder<Builder> {
        private final Set<TaskState> states = EnumSet.noneOf(TaskState.class);
        private String kind;
        private String queue;
        private String leaseOwner;
        private String errorContains;
        private Range created;
        private Range runAt;
        private Range finished;
        private Duration finishedWithin;
        private Long after;
        private Long before;
        private TaskOrder order = TaskOrder.ID_ASCENDING;

        private Builder() {}

        /** Only tasks in this state (replaces the states set before). */
        public Builder state(TaskState state) {
            if (state == null) {
                throw new IllegalArgumentException("state must not be null; omit it to match every state");
            }
            return states(Set.of(state));
        }

        /**
         * Only tasks in any of these states (replaces the states set before).
         *
         * @throws IllegalArgumentException if null, empty or holding null
         */
        public Builder states(Set<TaskState> states) {
            if (states == null || states.isEmpty() || states.stream().anyMatch(java.util.Objects::isNull)) {
                throw new IllegalArgumentException(
                        "states must be a non-empty set of task states without null; omit it to match every state");
            }
            this.states.clear();
            this.states.addAll(states);
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

        /**
         * Only tasks whose lease this node took last (the running tasks of a node, with the running state).
         *
         * @throws IllegalArgumentException if blank or longer than 200 characters
         */
        public Builder leaseOwner(String nodeId) {
            this.leaseOwner = Names.require("lease owner filter", nodeId, 200);
            return this;
        }

        /**
         * Only tasks whose last error contains {@code text}, ignoring case. The text is matched as it is:
         * {@code %}, {@code _} and the escape character are literal characters, never a pattern. Reading the
         * errors is a scan bounded by the other filters and the page size.
         *
         * @throws IllegalArgumentException if null or not 1 to {@value #MAX_ERROR_TEXT} characters
         */
        public Builder errorContains(String text) {
            if (text == null || text.isEmpty() || text.length() > MAX_ERROR_TEXT) {
                throw new IllegalArgumentException("errorContains must be 1 to " + MAX_ERROR_TEXT + " characters, got "
                        + (text == null ? "null" : text.length() + " characters"));
            }
            if (text.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("errorContains must not contain a NUL character");
            }
            this.errorContains = text;
            return this;
        }

        /** Only tasks created in {@code [from, before)}; either end may be null. */
        public Builder createdBetween(Instant from, Instant before) {
            this.created = range("createdBetween", from, before);
            return this;
        }

        /** Only tasks whose run time is in {@code [from, before)}; either end may be null. */
        public Builder runAtBetween(Instant from, Instant before) {
            this.runAt = range("runAtBetween", from, before);
            return this;
        }

        /** Only tasks that finished in {@code [from, before)}; either end may be null. */
        public Builder finishedBetween(Instant from, Instant before) {
            this.finished = range("finishedBetween", from, before);
            return this;
        }

        /**
         * Only tasks that ended (succeeded, failed or cancelled) in the last {@code age}, on the database's clock,
         * beside any {@link #finishedBetween} range and state filter. A search of error text reads every task it may
         * match, since no index serves a substring: a recent window keeps it to the newest ended tasks, which the
         * index on the state and finish time finds.
         *
         * @throws IllegalArgumentException if it is null, zero or negative, or longer than 36,500 days
         */
        public Builder finishedWithin(Duration age) {
            if (age == null || age.isZero() || age.isNegative()) {
                throw new IllegalArgumentException(
                        "finishedWithin must be a positive duration, such as Duration.ofHours(1), got " + age);
            }
            this.finishedWithin = TimeLimits.requireDuration("finishedWithin", age);
            return this;
        }

        /**
         * Keyset: only tasks whose id is greater than {@code id}.
         *
         * @throws IllegalArgumentException if negative
         */
        public Builder after(long id) {
            if (id < 0) {
                throw new IllegalArgumentException("after must be 0 or a task id, got " + id);
            }
            this.after = id;
            return this;
        }

        /**
         * Keyset: only tasks whose id is less than {@code id}.
         *
         * @throws IllegalArgumentException if not positive
         */
        public Builder before(long id) {
            if (id < 1) {
                throw new IllegalArgumentException("before must be a task id (1 or more), got " + id);
            }
            this.before = id;
            return this;
        }

        /** Removes the keyset cursors. */
        public Builder clearCursors() {
            this.after = null;
            this.before = null;
            return this;
        }

        /** The listing order (default {@link TaskOrder#ID_ASCENDING}). */
        public Builder order(TaskOrder order) {
            if (order == null) {
                throw new IllegalArgumentException("order must not be null; use ID_ASCENDING or ID_DESCENDING");
            }
            this.order = order;
            return this;
        }

        /**
         * Builds the query.
         *
         * @throws IllegalArgumentException if both an offset and a keyset cursor are set
         */
        public TaskQuery build() {
            PageRequest page = pageRequest();
            if ((after != null || before != null) && page.offset() != 0) {
                throw new IllegalArgumentException(
                        "a query pages by offset or by after/before, not both; got offset " + page.offset());
            }
            return new TaskQuery(this, page);
        }

        private static Range range(String name, Instant from, Instant before) {
            if (from == null && before == null) {
                throw new IllegalArgumentException(name + " needs at least one end; omit it to match every time");
            }
            if (from != null && before != null && !from.isBefore(before)) {
                throw new IllegalArgumentException(name
                        + " needs from before its end (the range is [from, before)), got " + from + " and " + before);
            }
            return new Range(from, before);
        }
    }
}
