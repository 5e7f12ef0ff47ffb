package dev.errand.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.process.ProcessRequest;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The creation of a process from a paged query, with pages read by OFFSET against pages read by key
 * ({@code pageBy}), in the caller's call, and by key on the cluster: the same query
 * ({@code SELECT id, amount FROM source ORDER BY id}, a primary key on {@code id}), the same page and batch sizes,
 * rounds alternating the order of the modes. Modes {@code offset} and {@code keyset} create the process in one
 * transaction, on a node that does not process, time {@code start(connection, request)} and roll the transaction
 * back, so that every round writes the same batches into the same tables and no worker runs. Mode {@code cluster}
 * starts the process with the definition's row mapper on a node that processes (4 workers, a pool of 10), times from
 * {@code start(request)} until the process is no longer initializing (its batches run meanwhile, as they do for
 * users), and lets the process finish before the next mode. With {@code -Derrand.bench.workers=1} the creation
 * runs alone: its one worker is busy with it until the last page, and the batches run after.
 *
 * <p>Arguments: {@code <jdbcUrl> <user> <password or -> <rows> [pageSize=1000] [batchSize=1000] [rounds=2]
 * [modes=offset,keyset,cluster]}.
 */
public final class ProcessPagingBench {

    /** Every mode, in the order of the first round. */
    static final List<String> MODES = List.of("offset", "keyset", "cluster");

    private ProcessPagingBench() {}

    /** Runs the rounds and prints each round's creation time. */
    public static void main(String[] args) throws Exception {
        long rows = Long.parseLong(args[3]);
        int pageSize = args.length > 4 ? Integer.parseInt(args[4]) : 1_000;
        int batchSize = args.length > 5 ? Integer.parseInt(args[5]) : 1_000;
        int rounds = args.length > 6 ? Integer.parseInt(args[6]) : 2;
        List<String> modes = args.length > 7 ? List.of(args[7].split(",")) : MODES;
        Map<String, List<Double>> seconds =
                run(args[0], args[1], args[2].equals("-") ? "" : args[2], rows, pageSize, batchSize, rounds, modes);
        System.out.println("rows: " + rows + ", page size: " + pageSize + ", batch size: " + batchSize);
        seconds.forEach((mode, times) -> System.out.println(mode + " creation seconds: " + times));
    }

    /**
     * Creates the process {@code rounds} times with each kind of paging over {@code rows} rows.
     *
     * @return the creation seconds of each round, under {@code offset} and {@code keyset}
     * @throws IllegalStateException if a round's mapper did not see every row once
     */
    public static Map<String, List<Double>> run(
            String url, String user, String password, long rows, int pageSize, int batchSize, int rounds)
            throws Exception {
        return run(url, user, password, rows, pageSize, batchSize, rounds, MODES);
    }

    /**
     * Creates the process {@code rounds} times in each of {@code modes} over {@code rows} rows.
     *
     * @return the creation seconds of each round, by mode
     * @throws IllegalStateException if a round did not read every row once
     */
    public static Map<String, List<Double>> run(
            String url,
            String user,
            String password,
            long rows,
            int pageSize,
            int batchSize,
            int rounds,
            List<String> modes)
            throws Exception {
        String prefix = "bench_paging_" + Long.toHexString(System.nanoTime() & 0xffffffL) + "_";
        try (HikariDataSource dataSource = ProcessBenchNode.pool(url, user, password, 4)) {
            try {
                ProcessBench.fillSource(dataSource, url, prefix, rows);
                Errand creator = ProcessBenchNode.register(Errand.builder(dataSource), prefix)
                        .processingEnabled(false)
                        .build();
                Errand cluster = null;
                // A pool of its own, as large as its 4 workers, poller, engine and listener need (Errand warns below).
                HikariDataSource clusterPool = null;
                if (modes.contains("cluster")) {
                    clusterPool = ProcessBenchNode.pool(url, user, password, 10);
                    cluster = ProcessBenchNode.register(Errand.builder(clusterPool), prefix)
                            .queue("default", Integer.getInteger("errand.bench.workers", 4))
                            .build();
                    cluster.start();
                }
                Map<String, List<Double>> seconds = new LinkedHashMap<>();
                for (String mode : modes) {
                    seconds.put(mode, new ArrayList<>());
                }
                for (int round = 0; round < rounds; round++) {
                    // Alternate the order, so that no mode always runs on a warmer cache.
                    List<String> order = new ArrayList<>(modes);
                    if (round % 2 == 1) {
                        java.util.Collections.reverse(order);
                    }
                    for (String mode : order) {
                        double elapsed = mode.equals("cluster")
                                ? createOnCluster(cluster, prefix, pageSize, batchSize, rows)
                                : create(creator, dataSource, prefix, mode, pageSize, batchSize, rows);
                        seconds.get(mode).add(Math.round(elapsed * 100) / 100.0);
                    }
                }
                creator.stop(Duration.ofSeconds(5));
                if (cluster != null) {
                    cluster.stop(Duration.ofSeconds(5));
                    clusterPool.close();
                }
                return seconds;
            } finally {
                ProcessBench.dropTables(dataSource, prefix);
            }
        }
    }

    /** Starts the process on the cluster and times it until its creation has ended; then lets it finish. */
    private static double createOnCluster(Errand cluster, String prefix, int pageSize, int batchSize, long rows)
            throws Exception {
        ProcessRequest<ProcessBenchNode.Row> request = ProcessRequest.builder(ProcessBenchNode.PROCESS)
                .query("SELECT id, amount FROM " + prefix + "source ORDER BY id")
                .pageBy("id")
                .pageSize(pageSize)
                .batchSize(batchSize)
                .build();
        long begin = System.nanoTime();
        String id = cluster.processes().start(request);
        dev.errand.process.ProcessInfo info;
        while (true) {
            info = cluster.processes().find(id).orElseThrow();
            if (info.state() != dev.errand.process.ProcessState.INITIALIZING) {
                break;
            }
            Thread.sleep(20); // a benchmark's poll of the process row, not a test's wait
        }
        double elapsed = (System.nanoTime() - begin) / 1e9;
        if (info.rowsRead() != rows) {
            throw new IllegalStateException("cluster creation read " + info.rowsRead() + " rows, expected " + rows
                    + " (state " + info.state() + ", error " + info.error() + ")");
        }
        dev.errand.process.ProcessInfo done = cluster.processes().wait(id, Duration.ofHours(1));
        if (done.state() != dev.errand.process.ProcessState.SUCCEEDED) {
            throw new IllegalStateException("cluster process ended " + done.state() + ": " + done.error());
        }
        return elapsed;
    }

    private static double create(
            Errand creator,
            HikariDataSource dataSource,
            String prefix,
            String mode,
            int pageSize,
            int batchSize,
            long rows)
            throws Exception {
        long[] read = {0};
        ProcessRequest.Builder<ProcessBenchNode.Row> request = ProcessRequest.builder(ProcessBenchNode.PROCESS)
                .query("SELECT id, amount FROM " + prefix + "source ORDER BY id", row -> {
                    read[0]++;
                    return new ProcessBenchNode.Row(row.getLong(1), row.getInt(2));
                })
                .pageSize(pageSize)
                .batchSize(batchSize);
        if (mode.equals("keyset")) {
            request.pageBy("id");
        }
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            long begin = System.nanoTime();
            creator.processes().start(c, request.build());
            double elapsed = (System.nanoTime() - begin) / 1e9;
            c.rollback();
            if (read[0] != rows) {
                throw new IllegalStateException(mode + " paging read " + read[0] + " rows, expected " + rows);
            }
            return elapsed;
        }
    }
}
