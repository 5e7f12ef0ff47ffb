package dev.errand.history;

import dev.errand.admin.PageRequest;
import dev.errand.admin.PagedQuery;
import dev.errand.config.Names;
import dev.errand.config.TimeLimits;
import java.time.Duration;
import java.time.Instant;

/**
 * A search of the attempt history: every filter is optional, attempts are listed newest first. Build one with
 * {@link #builder()}.
 */
public final class AttemptQuery extends PagedQuery {

    /** The largest page size. */
    public static final int MAX_LIMIT = PageRequest.MAX_LIMIT;

    /** The largest bound of {@link Builder#countUpTo(long)}. */
    public static final long MAX_COUNT_UP_TO = 10_000_000;

    private final String kind;
    private final AttemptOutcome outcome;
    private final Instant finishedFrom;
    private final Instant finishedBefore;
    private final String errorContains;
    private final long countUpTo;
    private final Duration finishedWithin;

    private AttemptQuery(Builder builder, PageRequest page) {
        super(page);
        this.kind = builder.kind;
        this.outcome = builder.outcome;
        this.finishedFrom = builder.finishedFrom;
        this.finishedBefore = builder.finishedBefore;
        this.errorContains = builder.errorContains;
        this.countUpTo = builder.countUpTo;
        this.finishedWithin = builder.finishedWithin;
    }

    /** Starts a query: no filter, first page of 50. */
    public static Builder builder() {
        return new Builder();
    }

    /** The kind filter, or {@code null}. */
    public String kind() {
        return kind;
    }

    /** The outcome filter, or {@code null}. */
    public AttemptOutcome outcome() {
        return outcome;
    }

    /** The earliest finish time (inclusive), or {@code null}. */
    public Instant finishedFrom() {
        return finishedFrom;
    }

    /** The finish time before which attempts match (exclusive), or {@code null}. */
    public Instant finishedBefore() {
        return finishedBefore;
    }

    /** Text that the error type or message must contain (case-sensitive), or {@code null}. */
    public String errorContains() {
        return errorContains;
    }

    /**
     * How far the total is counted: 0 (the default) counts every match; a positive bound stops the count past
     * it, or past the end of this page if that is further (see {@link Builder#countUpTo(long)}).
     */
    public long countUpTo() {
        return countUpTo;
    }

    /** How recently, on the database's clock, the attempts must have finished, or {@code null}. */
    public Duration finishedWithin() {
        return finishedWithin;
    }

    /** Builds an {@link AttemptQuery}. */
    public static final class Builder extends PagedQuery.Builder<Builder> {
        private String kind;
        private AttemptOutcome outcome;
        private Instant finishedFrom;
        private Instant finishedBefore;
        private String errorContains;
        private long countUpTo;
        private Duration finishedWithin;

        private Builder() {}

        /**
         * Only attempts that finished in the last {@code age}, on the database's clock (beside any
         * {@link #finishedBetween} range). A search of error text reads every attempt it may match, since no index
         * serves a substring: a recent window keeps it to the newest rows, which the index on the finish time finds.
         *
         * @throws IllegalArgumentException if it is null, zero or negative, or longer than 36,500 days
         */
        public Builder finishedWithin(Duration age) {
            if (age == null || age.isZero() || age.isNegative()) {
                throw new IllegalArgumentException(
                        "finishedWithin must be a positive duration, such as" + " Duration.ofHours(1), got " + age);
            }
            this.finishedWithin = TimeLimits.requireDuration("finishedWithin", age);
            return this;
        }

        /**
         * Stops counting the total past {@code bound} matches (or past the end of the page, if that is further):
         * the page's total is then exact up to the bound and otherwise a lower bound
         * ({@link dev.errand.admin.Page#totalExact()} false). An exact total of a large history reads every
         * match; a bounded one reads at most the bound. 0 counts every match, as by default.
         *
         * @throws IllegalArgumentException unless it is 0 to 10,000,000
         */
        public Builder countUpTo(long bound) {
            if (bound < 0 || bound > MAX_COUNT_UP_TO) {
                throw new IllegalArgumentException(
                        "countUpTo must be 0 (count every match) to " + MAX_COUNT_UP_TO + ", got " + bound);
            }
            this.countUpTo = bound;
            return this;
        }

        /**
         * Only attempts of this kind.
         *
         * @throws IllegalArgumentException if it is not a valid kind name
         */
        public Builder kind(String kind) {
            this.kind = Names.require("kind", kind, 200);
            return this;
        }

        /**
         * Only attempts that ended so.
         *
         * @throws IllegalArgumentException if null
         */
        public Builder outcome(AttemptOutcome outcome) {
            if (outcome == null) {
                throw new IllegalArgumentException("outcome must not be null; leave it unset to match every outcome");
            }
            this.outcome = outcome;
            return this;
        }

        /**
         * Only attempts that finished in {@code [from, before)}; either end may be {@code null} for none.
         *
         * @throws IllegalArgumentException if an end is outside the years 1000 to 9999 that every supported
         *     database stores ({@link TimeLimits}), or both are set and {@code before} is not after {@code from}
         */
        public Builder finishedBetween(Instant from, Instant before) {
            if (from != null) {
                TimeLimits.requireInstant("The start of the time range", from);
            }
            if (before != null) {
                TimeLimits.requireInstant("The end of the time range", before);
            }
            if (from != null && before != null && !before.isAfter(from)) {
                throw new IllegalArgumentException(
                        "The end of the time range (" + before + ") must be after its start (" + from + ")");
            }
            this.finishedFrom = from;
            this.finishedBefore = before;
            return this;
        }

        /**
         * Only failed attempts whose error type or message contains {@code text}.
         *
         * @throws IllegalArgumentException if it is blank, longer than 200 characters or holds NUL (no stored
         *     error does: Errand replaces it)
         */
        public Builder errorContains(String text) {
            if (text == null || text.isBlank() || text.length() > 200) {
                throw new IllegalArgumentException("errorContains must be 1 to 200 non-blank characters, got "
                        + (text == null ? "null" : text.length() + " characters"));
            }
            if (text.indexOf('\u0000') >= 0) {
                throw new IllegalArgumentException("errorContains must not hold NUL: stored errors never do (Errand"
                        + " replaces it with U+FFFD), got " + Names.echo(text));
            }
            this.errorContains = text;
            return this;
        }

        /** Builds the query. */
        public AttemptQuery build() {
            return new AttemptQuery(this, pageRequest());
        }
    }
}
