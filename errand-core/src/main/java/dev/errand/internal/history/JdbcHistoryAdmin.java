package dev.errand.internal.history;

import dev.errand.admin.Page;
import dev.errand.config.TimeLimits;
import dev.errand.error.ErrandException;
import dev.errand.history.Attempt;
import dev.errand.history.AttemptQuery;
import dev.errand.history.HistoryAdmin;
import dev.errand.history.Throughput;
import dev.errand.internal.store.Jdbc;
import dev.errand.internal.store.Micros;
import dev.errand.internal.store.Storage;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The history API on the attempt table: checks the arguments, then reads or prunes. */
public final class JdbcHistoryAdmin implements HistoryAdmin {

    private final Storage storage;
    private final AttemptHistory attempts;
    private final ThroughputQuery throughput;
    private final NodeThroughput nodeThroughput;

    /** Creates the API on a node's storage, its attempt history and the nodes' counts per minute. */
    public JdbcHistoryAdmin(Storage storage, AttemptHistory attempts, NodeThroughput nodeThroughput) {
        this.storage = storage;
        this.attempts = attempts;
        this.throughput = new ThroughputQuery(storage.dialect(), attempts.tables());
        this.nodeThroughput = nodeThroughput;
    }

    @Override
    public List<Attempt> attempts(long taskId) {
        if (taskId < 1) {
            throw new IllegalArgumentException("Task ids are positive numbers, got " + taskId);
        }
        return run("attempts", c -> attempts.attempts(c, taskId));
    }

    @Override
    public Page<Attempt> search(AttemptQuery query) {
        if (query == null) {
            throw new IllegalArgumentException(
                    "query must not be null; use AttemptQuery.builder().build() to match every attempt");
        }
        long bound = AttemptHistory.countBound(query);
        return run("search", c -> {
            long total = attempts.count(c, query);
            return new Page<>(
                    attempts.search(c, query), total, bound == 0 || total <= bound, query.offset(), query.limit());
        });
    }

    @Override
    public int prune(Duration age) {
        TimeLimits.requireDuration("age", age);
        try {
            return attempts.pruneOlderThan(storage.transactions(), Micros.ofAge(age));
        } catch (SQLException e) {
            throw new ErrandException("history prune", e);
        }
    }

    @Override
    public Optional<Throughput> throughput(Duration window, Duration bucket) {
        if (bucket == null
                || bucket.compareTo(Duration.ofSeconds(10)) < 0
                || bucket.compareTo(Duration.ofHours(1)) > 0
                || bucket.getNano() != 0) {
            throw new IllegalArgumentException("bucket must be 10 seconds to 1 hour in whole seconds, got " + bucket);
        }
        if (window == null
                || window.compareTo(bucket) < 0
                || window.compareTo(MAX_THROUGHPUT_WINDOW) > 0
                || window.toSeconds() % bucket.toSeconds() != 0
                || window.getNano() != 0) {
            throw new IllegalArgumentException("window must be one bucket (" + bucket + ") to 24 hours, a whole number"
                    + " of buckets, got " + window);
        }
        if (!attempts.enabled()) {
            return Optional.empty();
        }
        int count = (int) (window.toSeconds() / bucket.toSeconds());
        return Optional.of(run(
                "throughput",
                c -> throughput.read(
                        c, throughput.now(c, storage.offsetMicros()), bucket, count, storage.offsetMicros())));
    }

    @Override
    public Throughput nodeThroughput(Duration window) {
        if (window == null
                || window.compareTo(Duration.ofMinutes(1)) < 0
                || window.compareTo(NodeThroughput.KEPT) > 0
                || window.toSeconds() % 60 != 0
                || window.getNano() != 0) {
            throw new IllegalArgumentException(
                    "window must be 1 minute to 2 hours in whole minutes (the nodes' counts are kept two hours), got "
                            + window);
        }
        return run("node throughput", c -> nodeThroughput.read(c, (int) window.toMinutes()));
    }

    private <T> T run(String operation, Jdbc.ConnectionWork<T> work) {
        try {
            return storage.transactions().run("history " + operation, work);
        } catch (SQLException e) {
            throw new ErrandException("history " + operation, e);
        }
    }
}
