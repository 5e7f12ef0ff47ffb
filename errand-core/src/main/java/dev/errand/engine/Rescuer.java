package dev.errand.engine;

import dev.errand.store.AttemptError;
import dev.errand.store.ClaimedTask;
import dev.errand.store.ExpiredLease;
import dev.errand.store.TaskStore;
import dev.errand.task.LeaseExpiryAction;
import java.sql.SQLException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds running tasks whose lease expired — their worker was lost — and retries or fails them as
 * their kind says. Each task is handled in its own transaction under a {@code SKIP LOCKED} row lock,
 * so every node can run the rescuer at once, and a transactional run whose handler still holds its
 * row lock is never taken.
 */
final class Rescuer {

    private static final Logger log = LoggerFactory.getLogger(Rescuer.class);
    private static final int MAX_PER_SWEEP = 1_000;

    private final Engine engine;

    Rescuer(Engine engine) {
        this.engine = engine;
    }

    /** Rescues what has expired now; returns how many tasks it rescued. */
    int sweep() {
        int rescued = 0;
        try {
            while (rescued < MAX_PER_SWEEP && rescueOne()) {
                rescued++;
            }
        } catch (SQLException | RuntimeException e) {
            log.warn("Rescue sweep stopped after {} tasks: {}; continuing at the next interval", rescued,
                    e.getMessage());
        }
        return rescued;
    }

    private boolean rescueOne() throws SQLException {
        long offset = TaskStore.micros(engine.settings.clock().offset());
        Optional<Decision> decision = engine.transactions.run("rescue", connection -> {
            Optional<ExpiredLease> expired = engine.store.lockOneExpired(connection, offset);
            if (expired.isEmpty()) {
                return Optional.empty();
            }
            ClaimedTask task = expired.get().task();
            RegisteredKind kind = engine.kinds.get(task.kind());
            AttemptError error = engine.errors.of(task, "Worker lost: the lease held by node "
                    + expired.get().leaseOwner() + " expired during attempt " + task.attempt());
            boolean retry = (kind == null || kind.definition().leaseExpiryAction() == LeaseExpiryAction.RETRY)
                    && task.attempt() < task.maxAttempts();
            if (retry) {
                var delay = kind == null ? engine.settings.unknownKindRetryDelay()
                        : kind.retryPolicy().delayAfter(Math.max(1, task.attempt()));
                engine.store.retry(connection, task, delay, error, offset);
            }
            log.warn("Rescued task {} ({}) from lost node {}: {}", task.id(), task.kind(),
                    expired.get().leaseOwner(), retry ? "retrying" : "failing");
            return Optional.of(new Decision(task, kind, error, retry));
        });
        if (decision.isEmpty()) {
            return false;
        }
        Decision d = decision.get();
        engine.stats.recordRescued();
        engine.settings.listener().rescued(d.task().kind(), d.task().queue());
        if (!d.retried()) {
            // Fail outside the lock transaction so that the failure callback gets a transaction of its own.
            engine.outcomes.failForGood(d.task(), d.kind() == null ? null : d.kind().definition().failureCallback(),
                    d.error());
        }
        return true;
    }

    private record Decision(ClaimedTask task, RegisteredKind kind, AttemptError error, boolean retried) {}
}
