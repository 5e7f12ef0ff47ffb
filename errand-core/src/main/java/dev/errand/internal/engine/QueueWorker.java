package dev.errand.internal.engine;

import dev.errand.internal.runtime.Problems;
import dev.errand.internal.store.Micros;
import dev.errand.internal.wakeup.QueueSignal;
import dev.errand.spi.ClaimRequest;
import dev.errand.spi.ClaimedTask;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One queue on this node: a poller thread that claims due tasks in one statement, and a bounded pool
 * that runs what it claimed.
 *
 * <p>Prefetch: besides one task per worker, the poller keeps up to {@code prefetch} claimed tasks
 * waiting in the pool's queue, about as many as the queue completed in the last 200 ms. Fast tasks are
 * therefore claimed in large batches (one statement for many tasks), while slow tasks are not hoarded
 * away from other nodes. Waiting tasks hold leases that the heartbeat extends, and {@code stop()}
 * releases them. The poller claims again once half of the buffer has drained; it sleeps until a
 * wake-up, a worker freeing that much room after a full claim, or the poll interval.
 *
 * <p>The poller survives any error, an {@link OutOfMemoryError} included: it reports it, backs off and
 * claims again.
 */
final class QueueWorker {

    private static final Logger log = LoggerFactory.getLogger(QueueWorker.class);
    private static final SecureRandom TOKENS = new SecureRandom();
    private static final long RATE_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final QueueConfig config;
    private final Claimer claimer;
    private final TaskRunner runner;
    private final QueueSignal signal;
    private final Problems problems;
    private final String threadName;
    private final int capacity;
    /** Claimed tasks not finished yet, counted down from {@link #capacity}. */
    private final Semaphore freeSlots;

    private final LongAdder finished = new LongAdder();
    private final AtomicInteger executing = new AtomicInteger();
    private final ThreadPoolExecutor pool;
    private final Thread poller;
    private long windowStart = System.nanoTime();
    private long finishedAtWindowStart;
    private int finishedInLastWindow;
    /** Workers wake the poller when the claimed-and-unfinished count falls to this. */
    private volatile int wakeAtOutstanding;

    private volatile boolean claiming = true;
    private volatile boolean backlog;
    /** The cluster-wide controls: paused, and run-time overrides of the poll interval and batch size. */
    private volatile Tuning tuning;

    private long lastEmptyClaimNanos = System.nanoTime();

    /**
     * A queue's run-time controls.
     *
     * @param paused whether it claims nothing
     * @param interval the poll interval
     * @param batchSize the most tasks per claim
     */
    record Tuning(boolean paused, Duration interval, int batchSize) {}

    QueueWorker(QueueConfig config, Claimer claimer, TaskRunner runner, QueueSignal signal, Problems problems) {
        this.config = config;
        this.claimer = claimer;
        this.runner = runner;
        this.signal = signal;
        this.problems = problems;
        this.threadName = config.threadNamePrefix() + config.name() + "-poller";
        this.capacity = config.concurrency() + config.polling().prefetch();
        this.freeSlots = new Semaphore(capacity);
        this.pool = new ThreadPoolExecutor(
                config.concurrency(),
                config.concurrency(),
                0,
                TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(),
                new WorkerThreads(
                                config.threadNamePrefix() + config.name() + "-worker-",
                                config.threads().virtualWorkers())
                        .factory());
        this.tuning =
                new Tuning(false, config.polling().interval(), config.polling().batchSize());
        this.poller = new Thread(this::poll, threadName);
        this.poller.setDaemon(true);
    }

    void start() {
        poller.start();
    }

    /** The queue's name. */
    String name() {
        return config.name();
    }

    /** How many of this queue's tasks run at once. */
    int concurrency() {
        return config.concurrency();
    }

    /** Applies the queue's cluster-wide controls; a paused queue stops claiming at its next poll. */
    void tune(Tuning tuning) {
        this.tuning = tuning;
        signal.signal();
    }

    /** Whether the queue is paused. */
    boolean paused() {
        return tuning.paused();
    }

    /** How many of this queue's claimed tasks are running a handler now. */
    int executing() {
        return executing.get();
    }

    /** How many claimed tasks wait for a worker (the prefetch buffer). */
    int buffered() {
        return pool.getQueue().size();
    }

    private void poll() {
        Duration errorBackoff = Duration.ofMillis(100);
        if (!sleepUninterrupted(config.polling().cluster().startupDelay())) {
            return;
        }
        while (claiming) {
            try {
                if (!tuning.paused() && claimIfRoom()) {
                    continue;
                }
                problems.succeeded(threadName);
                errorBackoff = Duration.ofMillis(100);
                signal.await(tuning.interval());
                keepMinimumInterval();
            } catch (InterruptedException e) {
                return;
            } catch (Throwable failure) {
                // Nothing may end the poller: a dead poller strands its queue on this node.
                problems.failed(threadName, failure);
                sleepQuietly(errorBackoff);
                Duration doubled = errorBackoff.multipliedBy(2);
                errorBackoff = doubled.compareTo(tuning.interval()) > 0 ? tuning.interval() : doubled;
            }
        }
    }

    /** Claims if there is room; returns true if the poller should claim again at once. */
    private boolean claimIfRoom() throws Exception {
        int buffer = bufferTarget();
        int threshold = Math.max(1, (buffer + 1) / 2);
        int room = config.concurrency() + buffer - outstanding();
        wakeAtOutstanding = config.concurrency() + buffer - threshold;
        if (room < threshold) {
            // No room for what woke us (a notification, say): claim again once enough slots free, or the task
            // behind that wake-up waits for the next poll. The buffer target can shrink after a partial claim, so
            // the last claim's outcome alone does not say that there is work left.
            backlog = true;
            // A slot freed between the count and the flag did not signal: count again.
            room = config.concurrency() + buffer - outstanding();
            if (room < threshold) {
                return false;
            }
        }
        int limit = Math.min(room, tuning.batchSize());
        int claimed = claimAndDispatch(limit);
        if (claimed == 0) {
            lastEmptyClaimNanos = System.nanoTime();
        }
        problems.succeeded(threadName);
        backlog = claimed == limit;
        return backlog && config.concurrency() + bufferTarget() - outstanding() >= threshold;
    }

    private int outstanding() {
        return capacity - freeSlots.availablePermits();
    }

    /**
     * How many claimed tasks to keep waiting: what the queue completed in the last 200 ms, or twice what
     * it has completed so far in the current window if that is more, capped by {@code prefetch}. The
     * second term lets a node that starts (or wakes up) in front of a backlog double its claims each
     * time they finish instead of claiming one task per worker for a whole window; since it counts only
     * finished tasks, slow tasks never grow the buffer beyond what the node has shown it can run.
     */
    private int bufferTarget() {
        long now = System.nanoTime();
        if (now - windowStart >= RATE_WINDOW_NANOS) {
            long total = finished.sum();
            long elapsed = now - windowStart;
            // A long idle stretch counts as a window with its completions spread over it.
            finishedInLastWindow =
                    (int) Math.min(Integer.MAX_VALUE, (total - finishedAtWindowStart) * RATE_WINDOW_NANOS / elapsed);
            finishedAtWindowStart = total;
            windowStart = now;
        }
        long soFar = finished.sum() - finishedAtWindowStart;
        return (int) Math.min(config.polling().prefetch(), Math.max(finishedInLastWindow, 2 * soFar));
    }

    private int claimAndDispatch(int limit) throws Exception {
        ClaimRequest request = new ClaimRequest(
                config.name(),
                limit,
                config.nodeId(),
                TOKENS.nextLong(),
                Micros.of(config.polling().lease()),
                claimer.clockOffsetMicros(),
                config.polling().cluster().groups().stream().sorted().toList(),
                config.polling().cluster().exclusive());
        long claimedNanos = System.nanoTime();
        dev.errand.internal.flow.FlowControl.Claimed claim = claimer.claim(request);
        List<ClaimedTask> tasks = claim.tasks();
        if (tasks.isEmpty()) {
            return 0;
        }
        // The claim has committed: from here on an interrupt (from stop) must not strand these tasks.
        // The slots are free, since only this thread takes them, so this does not block.
        freeSlots.acquireUninterruptibly(tasks.size());
        List<ClaimedTask> rejected = new ArrayList<>();
        for (Runnable work : work(tasks, claim.chains(), claimedNanos)) {
            try {
                pool.execute(work);
            } catch (RejectedExecutionException stopping) {
                List<ClaimedTask> unstarted = tasksOf(work);
                freeSlots.release(unstarted.size());
                rejected.addAll(unstarted);
            }
        }
        claimer.release(rejected);
        return tasks.size();
    }

    /**
     * What the workers run: one {@link Chain} per chain of a flow-limited slot, one {@link Attempt} per other task,
     * except for the tasks of group-commit kinds, which go in {@link Group}s of up to their kind's size, in claim
     * order.
     */
    private List<Runnable> work(List<ClaimedTask> tasks, List<List<ClaimedTask>> chains, long claimedNanos) {
        List<Runnable> work = new ArrayList<>(tasks.size());
        java.util.Set<Long> chained = new java.util.HashSet<>();
        for (List<ClaimedTask> chain : chains) {
            work.add(new Chain(chain, claimedNanos));
            chain.forEach(task -> chained.add(task.id()));
        }
        java.util.Map<String, List<ClaimedTask>> open = new java.util.LinkedHashMap<>();
        for (ClaimedTask task : tasks) {
            if (chained.contains(task.id())) {
                continue;
            }
            int size = runner.groupSize(task);
            if (size <= 1) {
                work.add(new Attempt(task));
                continue;
            }
            List<ClaimedTask> group = open.computeIfAbsent(task.kind(), k -> new ArrayList<>(size));
            group.add(task);
            if (group.size() == size) {
                work.add(new Group(open.remove(task.kind())));
            }
        }
        open.values().forEach(group -> work.add(new Group(group)));
        return work;
    }

    private static List<ClaimedTask> tasksOf(Runnable work) {
        if (work instanceof Chain chain) {
            return chain.tasks;
        }
        return work instanceof Group group ? group.tasks : List.of(((Attempt) work).task);
    }

    /**
     * The tasks one claim took for one flow-limited slot, run one after another on one worker, so that the slot
     * never has two running at once. Before each task after the first it checks that the node is not stopping and
     * that the tasks' leases are sure to outlast the start (a heartbeat extended them less than three quarters of a
     * lease ago); otherwise it gives the rest back unstarted, so that no task starts on a slot that rescue may have
     * freed.
     */
    private final class Chain implements Runnable {
        final List<ClaimedTask> tasks;
        private final long claimedNanos;

        Chain(List<ClaimedTask> tasks, long claimedNanos) {
            this.tasks = List.copyOf(tasks);
            this.claimedNanos = claimedNanos;
        }

        @Override
        public void run() {
            for (int i = 0; i < tasks.size(); i++) {
                if (i > 0 && !mayStartNext()) {
                    List<ClaimedTask> rest = tasks.subList(i, tasks.size());
                    claimer.release(rest);
                    rest.forEach(QueueWorker.this::slotFreed);
                    return;
                }
                new Attempt(tasks.get(i)).run();
            }
        }

        private boolean mayStartNext() {
            if (!claiming || pool.isShutdown()) {
                return false;
            }
            long lease = config.polling().lease().toNanos();
            long extended = Math.max(claimedNanos, claimer.leasesExtendedNanos());
            return System.nanoTime() - extended < lease - lease / 4;
        }
    }

    /** Claimed tasks of one group-commit kind, run in one transaction by one worker. */
    private final class Group implements Runnable {
        final List<ClaimedTask> tasks;

        Group(List<ClaimedTask> tasks) {
            this.tasks = List.copyOf(tasks);
        }

        @Override
        public void run() {
            executing.addAndGet(tasks.size());
            try {
                runner.runGroup(tasks);
            } catch (Throwable unexpected) {
                log.error(
                        "Unexpected failure ending a group of {} tasks ({}); their leases will expire and rescue will"
                                + " handle them",
                        tasks.size(),
                        tasks.get(0).kind(),
                        unexpected);
            } finally {
                executing.addAndGet(-tasks.size());
                for (ClaimedTask task : tasks) {
                    slotFreed(task);
                }
            }
        }
    }

    /** Frees one claimed task's room in this queue. */
    private void slotFreed(ClaimedTask task) {
        freeSlots.release();
        finished.increment();
        // Under flow limits the end of a task may free a flow slot (not a task ahead in its chain), which may let
        // held-back tasks start: claim again.
        boolean freesFlowSlot = claimer.ended(task);
        if ((backlog || freesFlowSlot) && outstanding() <= wakeAtOutstanding) {
            signal.signal();
        }
    }

    /** A claimed task waiting for, or running on, a worker thread. */
    private final class Attempt implements Runnable {
        final ClaimedTask task;
        private final AtomicBoolean done = new AtomicBoolean();

        Attempt(ClaimedTask task) {
            this.task = task;
        }

        @Override
        public void run() {
            boolean handedToCompleter = false;
            executing.incrementAndGet();
            try {
                // A non-transactional success keeps its slot until the completer's batch commits, so
                // that claims cannot run ahead of completions.
                handedToCompleter = runner.run(task, this::finish);
            } catch (Throwable unexpected) {
                log.error(
                        "Unexpected failure ending task {} ({}); its lease will expire and rescue will handle it",
                        task.id(),
                        task.kind(),
                        unexpected);
            } finally {
                executing.decrementAndGet();
                if (!handedToCompleter) {
                    finish();
                }
            }
        }

        /** Frees the task's slot, once. */
        void finish() {
            if (!done.compareAndSet(false, true)) {
                return;
            }
            slotFreed(task);
        }
    }

    /** Stops claiming and waits for the poller to end. */
    void stopClaiming() {
        claiming = false;
        poller.interrupt();
        try {
            poller.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Takes back the tasks claimed but not started and stops accepting new ones. */
    List<ClaimedTask> drainUnstarted() {
        List<Runnable> queued = new ArrayList<>();
        pool.getQueue().drainTo(queued);
        pool.shutdown();
        List<ClaimedTask> unstarted = new ArrayList<>(queued.size());
        for (Runnable runnable : queued) {
            unstarted.addAll(tasksOf(runnable));
        }
        return unstarted;
    }

    /** Waits for running tasks until {@code deadlineNanos}; interrupts them if they are still running then. */
    boolean awaitRunning(long deadlineNanos) {
        try {
            if (pool.awaitTermination(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                return true;
            }
            log.warn(
                    "{} tasks of queue '{}' still running at the shutdown timeout; interrupting them."
                            + " Their leases will expire and rescue will handle them",
                    executing(),
                    config.name());
            pool.shutdownNow();
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            pool.shutdownNow();
            return false;
        }
    }

    /**
     * After a wake-up, waits until the minimum poll interval has passed since the last claim that found
     * nothing: a burst of wake-ups then costs one claim, not one each.
     */
    private void keepMinimumInterval() throws InterruptedException {
        long minimum = config.polling().cluster().minimumPollInterval().toNanos();
        long left = lastEmptyClaimNanos + minimum - System.nanoTime();
        if (minimum > 0 && left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    /** Sleeps; returns false if interrupted (the node is stopping). */
    private static boolean sleepUninterrupted(Duration duration) {
        if (duration.isZero()) {
            return true;
        }
        try {
            Thread.sleep(duration.toMillis());
            return true;
        } catch (InterruptedException e) {
            return false;
        }
    }

    private static void sleepQuietly(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
