package dev.errand.internal.engine;

import dev.errand.internal.flow.FlowControl;
import dev.errand.internal.store.Storage;
import dev.errand.spi.ClaimRequest;
import dev.errand.spi.ClaimStrategy;
import dev.errand.spi.ClaimedTask;
import dev.errand.spi.TaskTracing;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes tasks for this node and gives back those it will not run: claims with the node's strategy, in
 * auto-commit when the strategy is one statement, and releases claimed tasks that never started without
 * counting their attempt.
 */
final class Claimer {

    private static final Logger log = LoggerFactory.getLogger(Claimer.class);

    private final Storage storage;
    private final ClaimStrategy strategy;
    private final LeaseKeeper leases;
    private final Observers observers;
    private final FlowControl flow;
    // Every queue's poller claims through this one claimer.
    private final Queue<ClaimRequest> inDoubt = new ConcurrentLinkedQueue<>();

    Claimer(Storage storage, ClaimStrategy strategy, LeaseKeeper leases, Observers observers, FlowControl flow) {
        this.storage = storage;
        this.flow = flow;
        this.strategy = strategy;
        this.leases = leases;
        this.observers = observers;
    }

    /**
     * Claims what {@code request} asks for; the claimed tasks' leases are kept from now on. Under flow limits, the
     * claim also says which tasks form chains on one slot each, to run one after another.
     */
    FlowControl.Claimed claim(ClaimRequest request) throws SQLException {
        releaseClaimsInDoubt();
        List<ClaimedTask> tasks;
        List<List<ClaimedTask>> chains = List.of();
        try (TaskTracing.BatchSpan span =
                GuardedBatchSpan.open(observers.tracing(), "claim", tracing -> tracing.claimStarted(request.queue()))) {
            try {
                // Under flow limits, a claim is one transaction that takes the slots with the tasks.
                if (flow.active()) {
                    FlowControl.Claimed claimed = flow.claim(request);
                    tasks = claimed.tasks();
                    chains = claimed.chains();
                } else {
                    tasks = strategy.singleStatement()
                            ? storage.transactions()
                                    .runStatement("claim", connection -> strategy.claim(connection, request))
                            : storage.transactions().run("claim", connection -> strategy.claim(connection, request));
                }
            } catch (SQLException | RuntimeException e) {
                span.failed(e);
                if (e instanceof SQLException sql && storage.transactions().isConnectionFailure(sql)) {
                    // The claim may have committed before the connection broke: its rows would then wait a
                    // whole lease for rescue, which would count an attempt that never ran.
                    inDoubt.add(request);
                }
                throw e;
            }
            span.tasks(tasks.size());
        }
        observers.stats().recordClaimed(tasks.size());
        Duration lease = Duration.ofNanos(request.leaseMicros() * 1_000);
        for (ClaimedTask task : tasks) {
            leases.hold(task.id(), lease);
        }
        return new FlowControl.Claimed(tasks, chains);
    }

    /** When the last heartbeat that extended every lease of this node began (System.nanoTime). */
    long leasesExtendedNanos() {
        return leases.extendedNanos();
    }

    /** Gives back what claims in doubt took, once the database answers again. */
    private void releaseClaimsInDoubt() throws SQLException {
        ClaimRequest doubtful;
        while ((doubtful = inDoubt.peek()) != null) {
            ClaimRequest request = doubtful;
            int released = storage.transactions().runStatement("release", c -> storage.tasks()
                    .releaseClaim(c, request.owner(), request.leaseToken()));
            inDoubt.remove(request);
            if (released > 0) {
                log.info(
                        "Gave back {} tasks of a claim whose answer was lost with its connection; they run again"
                                + " without spending an attempt",
                        released);
            }
        }
    }

    /**
     * Notes that a claimed task has ended here (or was given back); returns whether that freed a flow-control slot,
     * so that the poller should claim again rather than wait for its interval.
     */
    boolean ended(ClaimedTask task) {
        return flow.active() && flow.ended(task);
    }

    /** The clock offset of a claim, in microseconds. */
    long clockOffsetMicros() {
        return storage.offsetMicros();
    }

    /** Returns claimed tasks that never started to pending, without counting their attempt. */
    void release(List<ClaimedTask> unstarted) {
        if (unstarted.isEmpty()) {
            return;
        }
        long[] ids = unstarted.stream().mapToLong(ClaimedTask::id).toArray();
        long[] tokens = unstarted.stream().mapToLong(ClaimedTask::leaseToken).toArray();
        try {
            int released = storage.transactions()
                    .runStatement("release", c -> storage.tasks().release(c, ids, tokens));
            unstarted.forEach(task -> leases.forget(task.id()));
            log.info("Released {} claimed tasks that had not started", released);
        } catch (SQLException e) {
            log.warn(
                    "Could not release {} unstarted tasks ({}); their leases will expire and rescue will"
                            + " return them",
                    ids.length,
                    e.getMessage());
        }
    }
}
