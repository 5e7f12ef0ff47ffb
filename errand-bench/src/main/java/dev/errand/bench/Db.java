package dev.errand.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where the benchmark's database is, and small helpers to reach it: PostgreSQL by default; MariaDB or H2 when
 * {@code -Dbench.db.url} names one (Errand's own systems, the raw SQL loop, db-scheduler and JobRunr run
 * there).
 */
public record Db(String url, String user, String password) {

    /**
     * The schema the benchmark works in: {@code -Dbench.db.schema} if given, otherwise one of this run's own,
     * {@code errand_bench_<time>_<pid>}, named once per JVM and handed to the child JVMs through the same
     * property. Two runs on one database (a benchmark and CI's smoke test, or two CI runs) never share tables,
     * and no one else's clean-up of {@code public} can reach them. Null when only {@code -Dbench.db.url} is
     * given: that URL's {@code currentSchema} decides.
     */
    public static synchronized String schema() {
        String given = System.getProperty(SCHEMA_PROPERTY);
        if (given != null && !given.isBlank()) {
            return given;
        }
        if (System.getProperty(URL_PROPERTY) != null) {
            return null; // the URL's own currentSchema (or the user's default) holds the tables
        }
        String own = "errand_bench_"
                + java.time.LocalDateTime.now(java.time.ZoneOffset.UTC)
                        .format(java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss"))
                + "_" + ProcessHandle.current().pid();
        System.setProperty(SCHEMA_PROPERTY, own);
        System.setProperty(OWN_SCHEMA_PROPERTY, own);
        return own;
    }

    /** Whether {@link #schema()} named the schema for this run (and the run should drop it when it ends). */
    public static boolean schemaIsThisRunsOwn() {
        String schema = schema();
        return schema != null && schema.equals(System.getProperty(OWN_SCHEMA_PROPERTY));
    }

    static final String SCHEMA_PROPERTY = "bench.db.schema";
    private static final String URL_PROPERTY = "bench.db.url";
    private static final String OWN_SCHEMA_PROPERTY = "bench.db.schema.own";

    /**
     * From {@code -Dbench.db.url} (default: schema {@link #schema()} of the local {@code test} database),
     * user and password likewise. The schema is created if it is missing.
     */
    public static Db fromSystemProperties() {
        String schema = schema();
        Db db = new Db(
                System.getProperty(URL_PROPERTY, "jdbc:postgresql://127.0.0.1:5432/test?currentSchema=" + schema),
                System.getProperty("bench.db.user", "postgres"),
                System.getProperty("bench.db.password", ""));
        if (schema != null) {
            db.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
        }
        return db;
    }

    /** How old a run's own schema must be before a later run takes it for abandoned: far longer than any run. */
    static final java.time.Duration ABANDONED_AFTER = java.time.Duration.ofHours(24);

    private static final java.util.regex.Pattern OWN_SCHEMA_NAME =
            java.util.regex.Pattern.compile("errand_bench_(\\d{8}_\\d{6})_\\d+");

    /**
     * Drops the schemas that runs named for themselves ({@code errand_bench_<time>_<pid>}) and left behind, killed
     * before their own clean-up, once their time is more than {@link #ABANDONED_AFTER} before {@code now}. Other
     * schemas, and a schema named with {@code -Dbench.db.schema}, are never touched.
     *
     * @return the schemas dropped
     */
    public List<String> dropAbandonedSchemas(java.time.LocalDateTime now) {
        List<String> dropped = new java.util.ArrayList<>();
        for (String schema : queryLines(
                "SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE 'errand\\_bench\\_%'")) {
            java.util.regex.Matcher name = OWN_SCHEMA_NAME.matcher(schema);
            if (!name.matches()) {
                continue;
            }
            java.time.LocalDateTime named = java.time.LocalDateTime.parse(
                    name.group(1), java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss"));
            if (named.plus(ABANDONED_AFTER).isBefore(now)) {
                dropSchema(schema);
                dropped.add(schema);
            }
        }
        return dropped;
    }

    /** Drops {@code schema} with everything in it. */
    public void dropSchema(String schema) {
        execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }

    /** A new pool, whose connections carry {@code name} as their application name; the caller closes it. */
    public HikariDataSource pool(String name, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(Math.min(2, size));
        config.setPoolName(name);
        if (kind() == FillSql.POSTGRES) {
            // So that a scenario can find the pool's PostgreSQL backends in pg_stat_activity (H2 refuses a
            // setting it does not know).
            config.addDataSourceProperty("ApplicationName", name);
        }
        return new HikariDataSource(config);
    }

    /** Which of PostgreSQL, MariaDB and H2 the URL names, with the SQL that differs between them. */
    public FillSql kind() {
        return FillSql.of(url);
    }

    /** Refreshes the planner's statistics of the tables (on PostgreSQL also the visibility map). */
    public void analyze(String... tables) {
        for (String table : tables) {
            execute(kind().analyze(table));
        }
    }

    /** The database's name for itself and its version, for reports. */
    public String version() {
        return queryLines(kind() == FillSql.H2 ? "SELECT 'H2 ' || H2VERSION()" : "SELECT version()")
                .get(0);
    }

    /** Drops every table of the current schema whose name starts with {@code prefix}. */
    public void dropTablesStartingWith(String prefix) {
        String like = prefix.toLowerCase(Locale.ROOT).replace("_", "\\_") + "%";
        String schema = kind().currentSchema();
        List<String> drops = new ArrayList<>();
        // MariaDB checks foreign keys at each drop, whatever the order: off for this connection only.
        if (kind() == FillSql.MARIADB) {
            drops.add("SET FOREIGN_KEY_CHECKS = 0");
        }
        for (String table : queryLines("SELECT table_name FROM information_schema.tables WHERE table_schema = " + schema
                + " AND table_type = 'BASE TABLE' AND LOWER(table_name) LIKE '" + like + "'")) {
            drops.add("DROP TABLE IF EXISTS " + table + " CASCADE");
        }
        execute(drops.toArray(String[]::new));
    }

    /** Runs statements in auto-commit mode on a connection of its own. */
    public void execute(String... sql) {
        try (Connection c = java.sql.DriverManager.getConnection(url, user, password);
                Statement s = c.createStatement()) {
            for (String each : sql) {
                s.execute(each);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("SQL failed: " + e.getMessage(), e);
        }
    }

    /**
     * The first column of the first row, as a long. Reuses one connection per thread, so that polling
     * for a count does not make PostgreSQL start a backend each time.
     */
    public long queryLong(String sql) {
        try {
            Connection c = POLLING.get().get(this);
            if (c == null || c.isClosed()) {
                c = java.sql.DriverManager.getConnection(url, user, password);
                POLLING.get().put(this, c);
            }
            try (Statement s = c.createStatement();
                    ResultSet rows = s.executeQuery(sql)) {
                rows.next();
                return rows.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("SQL failed: " + e.getMessage(), e);
        }
    }

    private static final ThreadLocal<java.util.Map<Db, Connection>> POLLING =
            ThreadLocal.withInitial(java.util.HashMap::new);

    /** Every row's first column as text. */
    public List<String> queryLines(String sql) {
        try (Connection c = java.sql.DriverManager.getConnection(url, user, password);
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery(sql)) {
            List<String> lines = new ArrayList<>();
            while (rows.next()) {
                lines.add(rows.getString(1));
            }
            return lines;
        } catch (SQLException e) {
            throw new IllegalStateException("SQL failed: " + e.getMessage(), e);
        }
    }
}
