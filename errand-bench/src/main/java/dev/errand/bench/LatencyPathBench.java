package dev.errand.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.spi.ClaimedTask;
import dev.errand.spi.TaskTracing;
import dev.errand.spi.TraceContext;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Where the latency from enqueue to handler goes on PostgreSQL (issue 34 §4), segment by segment, for one task
 * enqueued every 20 ms by a client node onto a worker node of 8 workers that learns of it through LISTEN/NOTIFY:
 *
 * <ul>
 *   <li>{@code enqueue}: the enqueue call (its insert and commit, with the {@code pg_notify} in the insert);
 *   <li>{@code notify}: from the enqueue's return until a LISTEN connection of this benchmark's own, blocked in
 *       pgjdbc's {@code getNotifications(timeout)} like Errand's listener, returns the notification;
 *   <li>{@code to-claim}: from the enqueue's return until the worker's poller starts the claim that takes the
 *       task (the notification, the listener's wake-up of the poller);
 *   <li>{@code claim}: the claim's statement and commit;
 *   <li>{@code hand-off}: from the claim's end until the handler starts on a worker thread;
 *   <li>{@code total}: from before the enqueue call until the handler starts.
 * </ul>
 *
 * <p>A second measurement isolates the driver: a connection sends {@code pg_notify} and commits, the benchmark
 * waits 5 ms so that the notification has surely arrived, then times {@code getNotifications(timeout)} on the
 * listening connection ({@code driver-receive}): what pgjdbc adds to a notification already in the socket.
 *
 * <p>The segments come from {@link TaskTracing}'s claim span (the claim that took a task is the last non-empty
 * one before its handler starts; at one task every 20 ms, claims do not overlap). Arguments: {@code <jdbcUrl>
 * <user> <password or -> <samples>}. Prints p50 and p90 of each segment in milliseconds.
 */
public final class LatencyPathBench {

    /** The segments, in the order of the path. */
    static final List<String> SEGMENTS =
            List.of("enqueue", "notify", "to-claim", "claim", "hand-off", "total", "driver-receive");

    private static final int INTERVAL_MS = 20;
    private static final int WARM_UP = 50;
    private static final int NOTIFY_WAIT_MS = 5;
    private static final String PREFIX_STEM = "bench_latpath_";

    private LatencyPathBench() {}

    /** Runs the benchmark; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        if (args.length != 4 || !args[3].matches("[1-9][0-9]*")) {
            throw new IllegalArgumentException("usage: LatencyPathBench <jdbcUrl of PostgreSQL> <user> <password or ->"
                    + " <samples, a positive whole number>; got " + java.util.Arrays.toString(args));
        }
        String password = args[2].equals("-") ? "" : args[2];
        Map<String, double[]> result = run(args[0], args[1], password, Integer.parseInt(args[3]));
        result.forEach((segment, q) ->
                System.out.printf(Locale.ROOT, "%-15s p50 %7.3f ms  p90 %7.3f ms%n", segment, q[0], q[1]));
    }

    /**
     * Measures {@code samples} tasks after a warm-up of {@value #WARM_UP}.
     *
     * @return per segment, its p50 and p90 in milliseconds
     */
    public static Map<String, double[]> run(String url, String user, String password, int samples) throws Exception {
        String prefix = PREFIX_STEM + Long.toHexString(System.nanoTime() & 0xffffffL) + "_";
        Db db = new Db(url, user, password);
        try (HikariDataSource workerPool = db.pool("latency_path_worker", 14);
                HikariDataSource clientPool = db.pool("latency_path_client", 3)) {
            try {
                Map<String, List<Double>> segments = path(url, user, password, prefix, workerPool, clientPool, samples);
                segments.put("driver-receive", driverReceive(url, user, password, prefix, samples));
                Map<String, double[]> quantiles = new LinkedHashMap<>();
                for (String segment : SEGMENTS) {
                    double[] values = segments.get(segment).stream()
                            .mapToDouble(Double::doubleValue)
                            .sorted()
                            .toArray();
                    quantiles.put(segment, new double[] {quantile(values, 0.5), quantile(values, 0.9)});
                }
                return quantiles;
            } finally {
                BenchTables.dropTables(workerPool, prefix);
            }
        }
    }

    /** One task's instants, {@link System#nanoTime} each. */
    private static final class Sample {
        final long before;
        volatile long enqueued;
        volatile long notified;
        volatile long claimStarted;
        volatile long claimEnded;
        volatile long handlerStarted;

        Sample(long before) {
            this.before = before;
        }
    }

    /** The payload: the sample's key. */
    public record Stamp(long t) {}

    private static Map<String, List<Double>> path(
            String url,
            String user,
            String password,
            String prefix,
            HikariDataSource workerPool,
            HikariDataSource clientPool,
            int samples)
            throws Exception {
        Map<Long, Sample> byStamp = new ConcurrentHashMap<>();
        AtomicLong lastClaimStart = new AtomicLong();
        AtomicLong lastClaimEnd = new AtomicLong();
        TaskTracing tracing = new ClaimTimes(lastClaimStart, lastClaimEnd);
        Errand worker = Errand.builder(workerPool)
                .tablePrefix(prefix)
                .queue("default", 8)
                .tracing(tracing)
                .register(TaskDefinition.builder("noop", Stamp.class, (stamp, ctx) -> {
                            long now = System.nanoTime();
                            Sample sample = byStamp.get(stamp.t());
                            if (sample != null) {
                                sample.claimStarted = lastClaimStart.get();
                                sample.claimEnded = lastClaimEnd.get();
                                sample.handlerStarted = now;
                            }
                        })
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build())
                .build();
        Errand client = Errand.builder(clientPool)
                .tablePrefix(prefix)
                .migrationsEnabled(false)
                .processingEnabled(false)
                .build();
        java.util.Queue<Long> unnotified = new java.util.concurrent.ConcurrentLinkedQueue<>();
        NotificationWatch watch = new NotificationWatch(
                url,
                user,
                password,
                prefix + "task_ready",
                stamp -> {
                    Sample sample = byStamp.get(stamp);
                    if (sample != null && sample.notified == 0) {
                        sample.notified = System.nanoTime();
                    }
                },
                unnotified);
        List<Sample> measured = new ArrayList<>();
        try (watch) {
            worker.start();
            for (int i = 0; i < WARM_UP + samples; i++) {
                Sample sample = new Sample(System.nanoTime());
                byStamp.put(sample.before, sample);
                unnotified.add(sample.before);
                client.enqueue(TaskRequest.of("noop", new Stamp(sample.before)));
                sample.enqueued = System.nanoTime();
                if (i >= WARM_UP) {
                    measured.add(sample);
                }
                Thread.sleep(INTERVAL_MS); // the pace of the scenario: one task every 20 ms
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (measured.stream().anyMatch(s -> s.handlerStarted == 0 || s.notified == 0)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("not every task ran, or was notified, within 30 s");
                }
                Thread.sleep(10);
            }
        } finally {
            worker.stop(Duration.ofSeconds(10));
            client.stop(Duration.ofSeconds(1));
        }
        Map<String, List<Double>> segments = new LinkedHashMap<>();
        for (Sample s : measured) {
            add(segments, "enqueue", s.enqueued - s.before);
            add(segments, "notify", s.notified - s.enqueued);
            add(segments, "to-claim", s.claimStarted - s.enqueued);
            add(segments, "claim", s.claimEnded - s.claimStarted);
            add(segments, "hand-off", s.handlerStarted - s.claimEnded);
            add(segments, "total", s.handlerStarted - s.before);
        }
        return segments;
    }

    /** Keeps the start and end of the last claim that took tasks. */
    private static final class ClaimTimes implements TaskTracing {
        private final AtomicLong start;
        private final AtomicLong end;

        ClaimTimes(AtomicLong start, AtomicLong end) {
            this.start = start;
            this.end = end;
        }

        @Override
        public TraceContext capture(String kind, String queue) {
            return TraceContext.NONE;
        }

        @Override
        public AttemptSpan attemptStarted(ClaimedTask task) {
            return AttemptSpan.NONE;
        }

        @Override
        public BatchSpan claimStarted(String queue) {
            long started = System.nanoTime();
            return new BatchSpan() {
                private int tasks;

                @Override
                public void tasks(int count) {
                    tasks = count;
                }

                @Override
                public void failed(Throwable error) {}

                @Override
                public void close() {
                    if (tasks > 0) {
                        start.set(started);
                        end.set(System.nanoTime());
                    }
                }
            };
        }
    }

    /** A LISTEN connection of the benchmark's own, on the channel Errand's enqueues notify. */
    private static final class NotificationWatch implements AutoCloseable {
        private final Thread thread;
        private final Connection connection;
        private volatile boolean running = true;

        NotificationWatch(
                String url,
                String user,
                String password,
                String channel,
                java.util.function.LongConsumer arrived,
                java.util.Queue<Long> unnotified)
                throws Exception {
            connection = DriverManager.getConnection(url, user, password);
            try (Statement listen = connection.createStatement()) {
                listen.execute("LISTEN \"" + channel + "\"");
            }
            PGConnection pg = connection.unwrap(PGConnection.class);
            // A notification names the queue, not the task: each enqueue sends one, in order, so the n-th notification
            // is the n-th task's, even when a busy machine delivers it after the next enqueue.
            thread = new Thread(
                    () -> {
                        while (running) {
                            try {
                                PGNotification[] received = pg.getNotifications(500);
                                for (int i = 0; received != null && i < received.length; i++) {
                                    Long stamp = unnotified.poll();
                                    if (stamp != null) {
                                        arrived.accept(stamp);
                                    }
                                }
                            } catch (Exception e) {
                                return;
                            }
                        }
                    },
                    "latency-path-listen");
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() throws Exception {
            running = false;
            thread.join(2_000);
            connection.close();
        }
    }

    /** What pgjdbc's {@code getNotifications(timeout)} takes for a notification already delivered. */
    private static List<Double> driverReceive(String url, String user, String password, String prefix, int samples)
            throws Exception {
        String channel = prefix + "probe";
        List<Double> times = new ArrayList<>();
        try (Connection listening = DriverManager.getConnection(url, user, password);
                Connection sending = DriverManager.getConnection(url, user, password);
                PreparedStatement notify = sending.prepareStatement("SELECT pg_notify(?, 'x')")) {
            try (Statement listen = listening.createStatement()) {
                listen.execute("LISTEN \"" + channel + "\"");
            }
            PGConnection pg = listening.unwrap(PGConnection.class);
            notify.setString(1, channel);
            for (int i = 0; i < samples; i++) {
                notify.execute();
                Thread.sleep(NOTIFY_WAIT_MS); // the notification is in the socket by then
                long before = System.nanoTime();
                PGNotification[] received = pg.getNotifications(1_000);
                long took = System.nanoTime() - before;
                if (received == null || received.length == 0) {
                    throw new IllegalStateException("a notification sent " + NOTIFY_WAIT_MS + " ms ago did not arrive");
                }
                times.add(took / 1e6);
            }
        }
        return times;
    }

    private static void add(Map<String, List<Double>> segments, String segment, long nanos) {
        segments.computeIfAbsent(segment, s -> new ArrayList<>()).add(nanos / 1e6);
    }

    private static double quantile(double[] sorted, double q) {
        return sorted.length == 0
                ? Double.NaN
                : sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    }
}
