package dev.errand.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.process.ProcessDefinition;
import dev.errand.process.ProcessKind;
import java.io.InputStream;
import java.sql.PreparedStatement;
import java.time.Duration;

/**
 * A worker JVM of {@link ProcessBench}: it registers the benchmark's process, runs its batches and analyses,
 * prints {@code READY}, and exits when its standard input closes. Arguments:
 * {@code <jdbcUrl> <user> <password or -> <tablePrefix> <nodeId>}.
 */
public final class ProcessBenchNode {

    /** One row of the benchmark's source table. */
    public record Row(long id, int amount) {}

    /** The benchmark's process: sums each batch's amounts into one row of the sink table. */
    static final ProcessKind<Row> PROCESS = ProcessKind.of("bench-sum", Row.class);

    private ProcessBenchNode() {}

    /** Runs the node until standard input closes. */
    public static void main(String[] args) throws Exception {
        String password = args[2].equals("-") ? "" : args[2];
        HikariDataSource dataSource = pool(args[0], args[1], password, 10);
        Errand errand = register(Errand.builder(dataSource), args[3])
                .nodeId(args[4])
                .queue("default", 4)
                .pollInterval(Duration.ofMillis(50))
                .build();
        errand.start();
        System.out.println("READY");
        System.out.flush();
        InputStream in = System.in;
        byte[] buffer = new byte[64];
        while (in.read(buffer) != -1) {
            // The coordinator closes stdin (or dies) to end the node.
        }
        errand.stop(Duration.ofSeconds(10));
        dataSource.close();
        System.exit(0);
    }

    /** Registers the process on a builder, with the run's table prefix. */
    static ErrandBuilder register(ErrandBuilder builder, String prefix) {
        String sink = prefix + "sink";
        return builder.tablePrefix(prefix)
                .registerProcess(ProcessDefinition.simple(PROCESS, (rows, context) -> {
                            long total = 0;
                            for (Row row : rows) {
                                total += row.amount();
                            }
                            try (PreparedStatement insert = context.connection()
                                    .prepareStatement(
                                            "INSERT INTO " + sink + " (batch_no, rows_done, total) VALUES (?, ?, ?)")) {
                                insert.setInt(1, context.batchNumber());
                                insert.setInt(2, rows.size());
                                insert.setLong(3, total);
                                insert.executeUpdate();
                            }
                        })
                        .withRowMapper(row -> new Row(row.getLong(1), row.getInt(2))));
    }

    static HikariDataSource pool(String url, String user, String password, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(size);
        return new HikariDataSource(config);
    }
}
