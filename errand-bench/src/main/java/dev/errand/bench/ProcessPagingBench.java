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
 * ({@code pageBy}): the same query ({@code SELECT id, amount FROM source ORDER BY id}, a primary key on
 * {@code id}), the same page and batch sizes, rounds alternating between the two. Each round creates the process
 * in one transaction, on a node that does not process, times {@code start(connection, request)} and rolls the
 * transaction back, so that every round writes the same batches into the same tables and no worker runs.
 *
 * <p>Arguments: {@code <jdbcUrl> <user> <password or -> <rows> [pageSize=1000] [batchSize=1000] [rounds=2]}.
 */
public final class ProcessPagingBench {

    private ProcessPagingBench() {}

    /** Runs the rounds and prints each round's creation time. */
    public static void main(String[] args) throws Exception {
        long rows = Long.parseLong(args[3]);
        int pageSize = args.length > 4 ? Integer.parseInt(args[4]) : 1_000;
        int batchSize = args.length > 5 ? Integer.parseInt(args[5]) : 1_000;
        int rounds = args.length > 6 ? Integer.parseInt(args[6]) : 2;
        Map<String, List<Double>> seconds =
                run(args[0], args[1], args[2].equals("-") ? "" : args[2], rows, pageSize, batchSize, rounds);
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
        String prefix = "bench_paging_" + Long.toHexString(System.nanoTime() & 0xffffffL) + "_";
        try (HikariDataSource dataSource = ProcessBenchNode.pool(url, user, password, 4)) {
            try {
                ProcessBench.fillSource(dataSource, url, prefix, rows);
                Errand creator = ProcessBenchNode.register(Errand.builder(dataSource), prefix)
                        .processingEnabled(false)
                        .build();
                Map<String, List<Double>> seconds = new LinkedHashMap<>();
                seconds.put("offset", new ArrayList<>());
                seconds.put("keyset", new ArrayList<>());
                for (int round = 0; round < rounds; round++) {
                    // Alternate which goes first, so that neither always runs on a warmer cache.
                    List<String> order = round % 2 == 0 ? List.of("offset", "keyset") : List.of("keyset", "offset");
                    for (String mode : order) {
                        double elapsed = create(creator, dataSource, prefix, mode, pageSize, batchSize, rows);
                        seconds.get(mode).add(Math.round(elapsed * 100) / 100.0);
                    }
                }
                creator.stop(Duration.ofSeconds(5));
                return seconds;
            } finally {
                ProcessBench.dropTables(dataSource, prefix);
            }
        }
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
