package dev.errand.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.process.ProcessInfo;
import dev.errand.process.ProcessRequest;
import dev.errand.process.ProcessState;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A distributed process over a table of {@code rows} rows, with {@code nodes} worker JVMs
 * ({@link ProcessBenchNode}): this JVM creates the process from a paged query ({@code batchSize} rows per batch,
 * {@code pageSize} rows per page) in one transaction, the workers run its batches, and the clock stops when the process has
 * succeeded. It records the creation time, the wall time (creation to the end of the process), rows per second,
 * and the heap this JVM uses (after a full GC) when the query has read {@code checkpoint} rows and when it has read
 * all of them: paging and writing the batches in chunks keep it flat.
 *
 * <p>Arguments: {@code <jdbcUrl> <user> <password or -> <rows> <nodes> [checkpoint] [batchSize] [pageSize]}.
 */
public final class ProcessBench {

    private static final String PREFIX_STEM = "bench_proc_";

    private ProcessBench() {}

    /**
     * The size of a run.
     *
     * @param rows the rows of the source table
     * @param nodes the worker JVMs
     * @param checkpoint after how many rows read the creating JVM's heap is measured the first time
     * @param batchSize rows per batch
     * @param pageSize rows per page of the query
     */
    public record Size(long rows, int nodes, long checkpoint, int batchSize, int pageSize) {}

    /** A database to run on. */
    record Database(String url, String user, String password) {}

    /** Runs the benchmark and prints its figures. */
    public static void main(String[] args) throws Exception {
        String password = args[2].equals("-") ? "" : args[2];
        long rows = Long.parseLong(args[3]);
        Map<String, String> figures = run(
                args[0],
                args[1],
                password,
                new Size(
                        rows,
                        Integer.parseInt(args[4]),
                        args.length > 5 ? Long.parseLong(args[5]) : rows / 10,
                        args.length > 6 ? Integer.parseInt(args[6]) : 100,
                        args.length > 7 ? Integer.parseInt(args[7]) : 10_000));
        figures.forEach((key, value) -> System.out.println(key + ": " + value));
    }

    /** Runs one process; returns its figures. */
    public static Map<String, String> run(String url, String user, String password, Size size) throws Exception {
        String prefix = PREFIX_STEM + Long.toHexString(System.nanoTime() & 0xffffffL) + "_";
        try (HikariDataSource dataSource = ProcessBenchNode.pool(url, user, password, 4)) {
            try {
                return measure(dataSource, new Database(url, user, password), prefix, size);
            } finally {
                dropTables(dataSource, prefix);
            }
        }
    }

    private static Map<String, String> measure(HikariDataSource dataSource, Database db, String prefix, Size size)
            throws Exception {
        String url = db.url();
        long rows = size.rows();
        long checkpoint = size.checkpoint();
        Errand creator = ProcessBenchNode.register(Errand.builder(dataSource), prefix)
                .processingEnabled(false)
                .build();
        fillSource(dataSource, url, prefix, rows);
        List<Process> workers = new ArrayList<>();
        try {
            for (int i = 0; i < size.nodes(); i++) {
                Process worker = Forks.java(
                                ProcessBenchNode.class,
                                List.of(
                                        url,
                                        db.user(),
                                        db.password().isEmpty() ? "-" : db.password(),
                                        prefix,
                                        "bench-node-" + i),
                                "-Xmx256m")
                        .start();
                workers.add(worker);
            }
            for (Process worker : workers) {
                awaitReady(worker);
            }
            long[] heap = new long[2];
            long baseline = usedHeapAfterGc();
            long begin = System.nanoTime();
            long[] read = {0};
            String id = creator.processes()
                    .start(ProcessRequest.builder(ProcessBenchNode.PROCESS)
                            .query("SELECT id, amount FROM " + prefix + "source ORDER BY id", row -> {
                                read[0]++;
                                if (read[0] == checkpoint) {
                                    heap[0] = usedHeapAfterGc();
                                } else if (read[0] == rows) {
                                    heap[1] = usedHeapAfterGc();
                                }
                                return new ProcessBenchNode.Row(row.getLong(1), row.getInt(2));
                            })
                            .batchSize(size.batchSize())
                            .pageSize(size.pageSize())
                            .build());
            double created = (System.nanoTime() - begin) / 1e9;
            ProcessInfo info = creator.processes().wait(id, Duration.ofMinutes(60));
            double seconds = (System.nanoTime() - begin) / 1e9;
            if (info.state() != ProcessState.SUCCEEDED) {
                throw new IllegalStateException("The process ended " + info.state() + ": " + info.error());
            }
            long done = scalar(dataSource, "SELECT COALESCE(SUM(rows_done), 0) FROM " + prefix + "sink");
            long total = scalar(dataSource, "SELECT COALESCE(SUM(total), 0) FROM " + prefix + "sink");
            long expected = scalar(dataSource, "SELECT COALESCE(SUM(amount), 0) FROM " + prefix + "source");
            if (done != rows || total != expected) {
                throw new IllegalStateException("The sink holds " + done + " rows summing to " + total + ", expected "
                        + rows + " and " + expected);
            }
            Map<String, String> figures = new LinkedHashMap<>();
            figures.put("rows", Long.toString(rows));
            figures.put("nodes", Integer.toString(size.nodes()));
            figures.put("batches", Integer.toString(info.batches()));
            figures.put("creation_s", fmt(created));
            figures.put("wall_s", fmt(seconds));
            figures.put("rows_per_s", fmt(rows / seconds));
            figures.put("heap_before_mb", mb(baseline));
            figures.put("heap_at_" + checkpoint + "_rows_mb", mb(heap[0]));
            figures.put("heap_at_" + rows + "_rows_mb", mb(heap[1]));
            return figures;
        } finally {
            for (Process worker : workers) {
                worker.getOutputStream().close();
            }
            for (Process worker : workers) {
                if (!worker.waitFor(20, TimeUnit.SECONDS)) {
                    worker.destroyForcibly();
                }
            }
            creator.stop(Duration.ofSeconds(5));
        }
    }

    static void fillSource(HikariDataSource dataSource, String url, String prefix, long rows) throws Exception {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + prefix + "source (id BIGINT NOT NULL PRIMARY KEY, amount INT NOT NULL)");
            s.execute("CREATE TABLE " + prefix + "sink (batch_no INT NOT NULL, rows_done INT NOT NULL,"
                    + " total BIGINT NOT NULL)");
            if (url.startsWith("jdbc:postgresql")) {
                s.execute("INSERT INTO " + prefix + "source (id, amount) SELECT g, g % 1000 FROM generate_series(1, "
                        + rows + ") g");
                s.execute("ANALYZE " + prefix + "source");
                return;
            }
            c.setAutoCommit(false);
            try (PreparedStatement insert =
                    c.prepareStatement("INSERT INTO " + prefix + "source (id, amount) VALUES (?, ?)")) {
                for (long id = 1; id <= rows; id++) {
                    insert.setLong(1, id);
                    insert.setInt(2, (int) (id % 1000));
                    insert.addBatch();
                    if (id % 5_000 == 0 || id == rows) {
                        insert.executeBatch();
                        c.commit();
                    }
                }
            }
            c.setAutoCommit(true);
        }
    }

    private static void awaitReady(Process worker) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(worker.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null) {
            if (line.equals("READY")) {
                Thread drain = new Thread(
                        () -> {
                            try {
                                while (out.readLine() != null) {
                                    // Keep the pipe from filling up.
                                }
                            } catch (java.io.IOException e) {
                                // The worker ended.
                            }
                        },
                        "bench-worker-output");
                drain.setDaemon(true);
                drain.start();
                return;
            }
        }
        throw new IllegalStateException("A worker JVM exited before it was ready");
    }

    private static long usedHeapAfterGc() {
        Runtime runtime = Runtime.getRuntime();
        for (int i = 0; i < 2; i++) {
            System.gc();
        }
        return runtime.totalMemory() - runtime.freeMemory();
    }

    private static long scalar(HikariDataSource dataSource, String sql) throws Exception {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet row = s.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }

    static void dropTables(HikariDataSource dataSource, String prefix) throws Exception {
        List<String> tables = new ArrayList<>();
        try (Connection c = dataSource.getConnection()) {
            for (String pattern : List.of(prefix.toLowerCase(Locale.ROOT), prefix.toUpperCase(Locale.ROOT))) {
                try (ResultSet found =
                        c.getMetaData().getTables(c.getCatalog(), null, pattern + "%", new String[] {"TABLE"})) {
                    while (found.next()) {
                        String table = found.getString("TABLE_NAME");
                        if (table.toLowerCase(Locale.ROOT).startsWith(prefix.toLowerCase(Locale.ROOT))) {
                            tables.add(table);
                        }
                    }
                }
            }
            try (Statement s = c.createStatement()) {
                for (String table : tables) {
                    s.execute("DROP TABLE IF EXISTS " + table);
                }
            }
        }
    }

    private static String fmt(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f", bytes / (1024.0 * 1024.0));
    }
}
