package dev.errand.bench.systems;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.bench.BenchSystem;
import dev.errand.bench.Db;
import dev.errand.bench.FillSql;
import dev.errand.bench.Probe;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The ceiling: Errand's own table and indexes (created by Errand's migrations), driven by tight JDBC
 * loops with no framework. Each loop holds one connection and reuses its prepared statements.
 *
 * <p>Non-transactional: a loop claims up to 100 due tasks with the same {@code UPDATE … WHERE id IN
 * (SELECT … FOR UPDATE SKIP LOCKED LIMIT n) RETURNING} statement as Errand, runs them, and deletes the
 * batch with one fenced {@code DELETE … WHERE id = ANY(?)}. Transactional: a loop per worker claims a
 * share of the batch, then runs each task in its own transaction: fenced lock, handler, fenced delete,
 * commit. There is no wake-up mechanism: an empty claim sleeps 2 ms. {@link #withWrites()}: the transactional
 * handler also inserts one row, as a task that records its effect does.
 *
 * <p>On MariaDB and H2, which have no {@code UPDATE … RETURNING}, a claim is a transaction of two statements, as
 * Errand's is there: {@code SELECT id, payload … LIMIT n FOR UPDATE SKIP LOCKED}, then one {@code UPDATE} of the
 * locked ids; times are the database's clock in Errand's terms (UTC on MariaDB). See {@link SelectThenUpdateClaims}.
 */
public final class RawSqlSystem implements BenchSystem {

    private static final int CLAIM_BATCH = 100;

    private final Db db;
    private final FillSql kind;
    private final boolean transactional;
    private final String prefix;
    private final int loops;
    private Connection enqueueConnection;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running;
    private int concurrency;
    private Probe probe;
    private boolean writes;

    /**
     * @param loops claim-and-complete loops in non-transactional mode (transactional mode runs one loop
     *     per worker)
     */
    public RawSqlSystem(Db db, boolean transactional, String prefix, int loops) {
        this.db = db;
        this.kind = db.kind();
        this.transactional = transactional;
        this.prefix = prefix;
        this.loops = loops;
    }

    /**
     * The same transactional loop whose handler inserts one row into {@code <prefix>effect} in each task's
     * transaction.
     */
    public RawSqlSystem withWrites() {
        if (!transactional) {
            throw new IllegalStateException("Writes are measured in the transactional loop only");
        }
        RawSqlSystem with = new RawSqlSystem(db, true, prefix, loops);
        with.writes = true;
        return with;
    }

    @Override
    public String id() {
        return (transactional ? "raw-sql-tx" : "raw-sql") + (writes ? "-write" : "");
    }

    @Override
    public String version() {
        return switch (kind) {
            case POSTGRES -> "JDBC, PostgreSQL driver " + org.postgresql.util.DriverInfo.DRIVER_VERSION;
            case MARIADB ->
                "JDBC, MariaDB Connector/J "
                        + org.mariadb.jdbc.util.VersionFactory.getInstance().getVersion();
            case H2 -> "JDBC, H2 " + org.h2.engine.Constants.VERSION;
        };
    }

    @Override
    public String taskTable() {
        return prefix + "task";
    }

    @Override
    public void setUp() throws SQLException {
        tearDown();
        try (HikariDataSource pool = db.pool(prefix + "ddl", 2)) {
            Errand.builder(pool).tablePrefix(prefix).processingEnabled(false).build();
        }
        if (writes) {
            db.execute(ErrandSystem.effectTableSql(prefix));
        }
        enqueueConnection = DriverManager.getConnection(db.url(), db.user(), db.password());
    }

    @Override
    public void prefill(int count) {
        if (kind == FillSql.POSTGRES) {
            db.execute(ErrandSystem.prefillSql(db, prefix, count, 5, "0"));
        } else if (count > 0) {
            // The rows of ErrandSystem.prefillSql: due now, each run_at one microsecond before the one before.
            db.execute("INSERT INTO " + taskTable() + " (kind, queue, payload, priority, run_at, max_attempts)"
                    + " SELECT 'noop', 'default', '{\"t\":0}', 5, " + kind.nowPlusMicros("-" + kind.i()) + ", 5"
                    + kind.series(count));
        }
    }

    @Override
    public void enqueueOne(long stamp) throws SQLException {
        try (PreparedStatement insert = enqueueConnection.prepareStatement(insertOneSql())) {
            insert.setString(1, "{\"t\":" + stamp + "}");
            insert.executeUpdate();
        }
    }

    private String insertOneSql() {
        String payload = kind == FillSql.POSTGRES ? "CAST(? AS jsonb)" : "?";
        return "INSERT INTO " + taskTable() + " (kind, queue, payload, priority, run_at, max_attempts) VALUES"
                + " ('noop', 'default', " + payload + ", 5, " + kind.now() + ", 5)";
    }

    @Override
    public void enqueueBatch(int count) throws SQLException {
        if (kind != FillSql.POSTGRES) {
            enqueueJdbcBatch(count);
            return;
        }
        String[] payloads = new String[count];
        java.util.Arrays.fill(payloads, "{\"t\":0}");
        try (PreparedStatement insert = enqueueConnection.prepareStatement("INSERT INTO " + taskTable()
                + " (kind, queue, payload, priority, run_at, max_attempts) SELECT 'noop', 'default',"
                + " CAST(p AS jsonb), 5, statement_timestamp(), 5 FROM unnest(CAST(? AS text[])) AS p")) {
            insert.setArray(1, enqueueConnection.createArrayOf("text", payloads));
            insert.executeUpdate();
        }
    }

    /** MariaDB and H2, which have no arrays to unnest: one JDBC batch of single-row inserts, one transaction. */
    private void enqueueJdbcBatch(int count) throws SQLException {
        enqueueConnection.setAutoCommit(false);
        try (PreparedStatement insert = enqueueConnection.prepareStatement(insertOneSql())) {
            for (int i = 0; i < count; i++) {
                insert.setString(1, "{\"t\":0}");
                insert.addBatch();
            }
            insert.executeBatch();
            enqueueConnection.commit();
        } catch (SQLException e) {
            enqueueConnection.rollback();
            throw e;
        } finally {
            enqueueConnection.setAutoCommit(true);
        }
    }

    @Override
    public void prepareWorkers(int concurrency, Probe probe) {
        this.concurrency = concurrency;
        this.probe = probe;
    }

    @Override
    public void startWorkers() {
        running = true;
        int count = transactional ? concurrency : loops;
        int batch = transactional ? Math.max(1, CLAIM_BATCH / concurrency) : CLAIM_BATCH;
        for (int i = 0; i < count; i++) {
            Thread thread = new Thread(() -> loop(batch), id() + "-loop-" + i);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    private void loop(int batch) {
        String table = taskTable();
        // PostgreSQL claims and completes a batch in one auto-commit statement each; the others commit each
        // step themselves, so that a task's transaction needs no auto-commit switch (a round trip on MariaDB).
        boolean autoCommit = kind == FillSql.POSTGRES;
        try (Connection c = connect();
                Claims claims =
                        autoCommit ? new ReturningClaims(c, table) : new SelectThenUpdateClaims(c, table, kind);
                PreparedStatement lock = c.prepareStatement("UPDATE " + table + " SET started_at = " + kind.now()
                        + " WHERE id = ? AND lease_token = ? AND state = 'running'");
                PreparedStatement completeOne = c.prepareStatement(
                        "DELETE FROM " + table + " WHERE id = ? AND lease_token = ? AND state = 'running'");
                // Only with writes: H2 checks at prepare time that the table exists.
                PreparedStatement effect = writes ? c.prepareStatement(ErrandSystem.effectInsertSql(prefix)) : null) {
            long[] ids = new long[batch];
            long[] stamps = new long[batch];
            while (running) {
                long token = ThreadLocalRandom.current().nextLong();
                int n;
                try {
                    n = claims.claim(token, batch, ids, stamps);
                } catch (SQLTransactionRollbackException e) {
                    // A deadlock or serialization failure (MariaDB, under eight loops): the application retries.
                    rollback(c, autoCommit);
                    continue;
                }
                if (n == 0) {
                    Thread.sleep(2);
                    continue;
                }
                if (transactional) {
                    for (int i = 0; i < n; i++) {
                        if (autoCommit) {
                            c.setAutoCommit(false);
                        }
                        boolean ran;
                        while (true) {
                            try {
                                lock.setLong(1, ids[i]);
                                lock.setLong(2, token);
                                ran = lock.executeUpdate() == 1;
                                if (ran) {
                                    if (writes) {
                                        effect.setLong(1, ids[i]);
                                        effect.setLong(2, stamps[i]);
                                        effect.executeUpdate();
                                    }
                                    completeOne.setLong(1, ids[i]);
                                    completeOne.setLong(2, token);
                                    completeOne.executeUpdate();
                                }
                                c.commit();
                                break;
                            } catch (SQLTransactionRollbackException e) {
                                c.rollback();
                            }
                        }
                        if (ran) {
                            probe.ran(stamps[i]);
                        }
                        if (autoCommit) {
                            c.setAutoCommit(true);
                        }
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        probe.ran(stamps[i]);
                    }
                    while (true) {
                        try {
                            claims.completeAll(token, ids, n);
                            break;
                        } catch (SQLTransactionRollbackException e) {
                            rollback(c, autoCommit);
                        }
                    }
                }
            }
        } catch (SQLException | RuntimeException e) {
            if (running) {
                System.err.println(id() + " loop failed: " + e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void rollback(Connection c, boolean autoCommit) throws SQLException {
        if (!autoCommit) {
            c.rollback();
        }
    }

    /** A loop's connection: auto-commit on PostgreSQL; on MariaDB and H2 committed by hand, at Errand's isolation. */
    private Connection connect() throws SQLException {
        Connection c = DriverManager.getConnection(db.url(), db.user(), db.password());
        if (kind != FillSql.POSTGRES) {
            c.setAutoCommit(false);
        }
        if (kind == FillSql.MARIADB) {
            // As Errand's transactions there: at REPEATABLE READ, the default, a locking read also locks the gaps
            // between the rows it reads, and enqueues wait for the claims.
            c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        }
        return c;
    }

    static long stampOf(String json) {
        // {"t": 123} or {"t":123}
        int colon = json.indexOf(':');
        int end = json.indexOf('}', colon);
        return Long.parseLong(json.substring(colon + 1, end).trim());
    }

    @Override
    public void stopWorkers() throws InterruptedException {
        running = false;
        for (Thread thread : threads) {
            thread.join(10_000);
        }
        threads.clear();
    }

    @Override
    public long remaining() {
        return db.queryLong("SELECT count(*) FROM " + taskTable() + " WHERE state IN ('pending', 'running')");
    }

    @Override
    public void tearDown() throws SQLException {
        running = false;
        if (enqueueConnection != null) {
            enqueueConnection.close();
            enqueueConnection = null;
        }
        // Every table of the prefix: the task table and the side tables that later migrations add.
        db.dropTablesStartingWith(prefix);
    }

    @Override
    public void close() throws Exception {
        stopWorkers();
        tearDown();
    }

    /** A loop's claim and batch completion, with statements prepared once on the loop's connection. */
    private interface Claims extends AutoCloseable {

        /**
         * Claims up to {@code limit} due tasks under {@code token}, committed, into {@code ids} and {@code stamps}.
         *
         * @return how many
         */
        int claim(long token, int limit, long[] ids, long[] stamps) throws SQLException;

        /** Deletes the first {@code n} of {@code ids} if {@code token} still holds them, committed. */
        void completeAll(long token, long[] ids, int n) throws SQLException;

        @Override
        void close() throws SQLException;
    }

    /**
     * PostgreSQL: one {@code UPDATE … RETURNING} claims, one {@code DELETE … WHERE id = ANY(?)} completes, each in
     * auto-commit mode. The claim names its rows with {@code id = ANY(ARRAY(…))}, like Errand's: with {@code id IN
     * (…)} a nested-loop plan may run the locking subquery once per row and claim far more than its limit.
     */
    private static final class ReturningClaims implements Claims {

        private final Connection c;
        private final PreparedStatement claim;
        private final PreparedStatement completeAll;

        ReturningClaims(Connection c, String table) throws SQLException {
            this.c = c;
            this.claim = c.prepareStatement("UPDATE " + table + " SET state = 'running', attempt = attempt + 1,"
                    + " version = version + 1, lease_owner = 'raw', lease_token = ?, lease_expires_at ="
                    + " statement_timestamp() + interval '60 seconds', started_at = statement_timestamp()"
                    + " WHERE id = ANY(ARRAY(SELECT id FROM " + table + " WHERE state = 'pending' AND queue = 'default'"
                    + " AND run_at <= statement_timestamp() ORDER BY priority, run_at LIMIT ? FOR UPDATE SKIP LOCKED))"
                    + " RETURNING id, payload");
            this.completeAll = c.prepareStatement(
                    "DELETE FROM " + table + " WHERE id = ANY(?) AND lease_token = ? AND state = 'running'");
        }

        @Override
        public int claim(long token, int limit, long[] ids, long[] stamps) throws SQLException {
            claim.setLong(1, token);
            claim.setInt(2, limit);
            int n = 0;
            try (ResultSet rows = claim.executeQuery()) {
                while (rows.next()) {
                    ids[n] = rows.getLong(1);
                    stamps[n++] = stampOf(rows.getString(2));
                }
            }
            return n;
        }

        @Override
        public void completeAll(long token, long[] ids, int n) throws SQLException {
            Long[] boxed = new Long[n];
            for (int i = 0; i < n; i++) {
                boxed[i] = ids[i];
            }
            completeAll.setArray(1, c.createArrayOf("bigint", boxed));
            completeAll.setLong(2, token);
            completeAll.executeUpdate();
        }

        @Override
        public void close() throws SQLException {
            claim.close();
            completeAll.close();
        }
    }

    /**
     * MariaDB and H2, which have no {@code UPDATE … RETURNING}: a claim is a transaction that locks the due tasks
     * with {@code SELECT … FOR UPDATE SKIP LOCKED} and takes their lease with one {@code UPDATE} of their ids, as
     * Errand claims there. Ids are listed as Errand lists them: an array on H2, an {@code IN} list on MariaDB
     * padded to a power of two (repeating the last id), so that a loop prepares a handful of statements.
     */
    private static final class SelectThenUpdateClaims implements Claims {

        /** Where the statements name their ids. */
        private static final String IDS = "{ids}";

        private final Connection c;
        private final FillSql kind;
        private final PreparedStatement select;
        private final PreparedStatement lockIds;
        private final String update;
        private final String delete;
        private final Map<Integer, PreparedStatement> updates = new HashMap<>();
        private final Map<Integer, PreparedStatement> deletes = new HashMap<>();

        SelectThenUpdateClaims(Connection c, String table, FillSql kind) throws SQLException {
            this.c = c;
            this.kind = kind;
            this.select = c.prepareStatement(selectDue(table, kind));
            this.lockIds = kind == FillSql.H2 ? c.prepareStatement(lockIds(table)) : null;
            this.update = "UPDATE " + table + " SET state = 'running', attempt = attempt + 1, version = version + 1,"
                    + " lease_owner = 'raw', lease_token = ?, lease_expires_at = " + kind.nowPlusSeconds("60") + ","
                    + " started_at = " + kind.now() + " WHERE " + IDS;
            this.delete = "DELETE FROM " + table + " WHERE " + IDS + " AND lease_token = ? AND state = 'running'";
        }

        /**
         * The due tasks, best first, locked. On H2, which locks every row that matches before it applies the
         * limit, this reads the ids without locks, ordered along the claim index {@code (state, queue, priority,
         * run_at)} so that H2 reads the index in order and stops at the limit; {@link #lockIds} then locks them, as
         * Errand's H2 claim does (one statement with the read as an {@code IN} subquery made H2 run the subquery
         * again for every row it read).
         */
        static String selectDue(String table, FillSql kind) {
            String due =
                    " FROM " + table + " WHERE state = 'pending' AND queue = 'default' AND run_at <= " + kind.now();
            if (kind == FillSql.H2) {
                return "SELECT id" + due + " ORDER BY state, queue, priority, run_at LIMIT ?";
            }
            return "SELECT id, payload" + due + " ORDER BY priority, run_at LIMIT ? FOR UPDATE SKIP LOCKED";
        }

        /** H2: locks the pending tasks among the ids {@link #selectDue} read; one another loop took is skipped. */
        static String lockIds(String table) {
            return "SELECT id, payload FROM " + table + " WHERE id = ANY(?) AND state = 'pending'"
                    + " ORDER BY priority, run_at FOR UPDATE SKIP LOCKED";
        }

        @Override
        public int claim(long token, int limit, long[] ids, long[] stamps) throws SQLException {
            select.setInt(1, limit);
            int n = 0;
            if (lockIds != null) {
                List<Long> due = new ArrayList<>(limit);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        due.add(rows.getLong(1));
                    }
                }
                lockIds.setObject(1, due.toArray(new Long[0]));
                try (ResultSet rows = lockIds.executeQuery()) {
                    while (rows.next()) {
                        ids[n] = rows.getLong(1);
                        stamps[n++] = stampOf(rows.getString(2));
                    }
                }
            } else {
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        ids[n] = rows.getLong(1);
                        stamps[n++] = stampOf(rows.getString(2));
                    }
                }
            }
            if (n > 0) {
                PreparedStatement take = prepared(updates, update, n);
                take.setLong(1, token);
                bindIds(take, 2, ids, n);
                take.executeUpdate();
            }
            // Also when nothing was due: H2's CURRENT_TIMESTAMP stays at the time the transaction began.
            c.commit();
            return n;
        }

        @Override
        public void completeAll(long token, long[] ids, int n) throws SQLException {
            PreparedStatement complete = prepared(deletes, delete, n);
            complete.setLong(bindIds(complete, 1, ids, n), token);
            complete.executeUpdate();
            c.commit();
        }

        /** The statement for {@code n} ids, prepared once per list length. */
        private PreparedStatement prepared(Map<Integer, PreparedStatement> cache, String sql, int n)
                throws SQLException {
            int slots = slots(n);
            PreparedStatement statement = cache.get(slots);
            if (statement == null) {
                String ids = kind == FillSql.H2 ? "id = ANY(?)" : "id IN (" + "?, ".repeat(slots - 1) + "?)";
                statement = c.prepareStatement(sql.replace(IDS, ids));
                cache.put(slots, statement);
            }
            return statement;
        }

        private int slots(int n) {
            return kind == FillSql.H2 || n <= 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
        }

        /** Binds the first {@code n} ids from parameter {@code index}; returns the next parameter's index. */
        private int bindIds(PreparedStatement statement, int index, long[] ids, int n) throws SQLException {
            if (kind == FillSql.H2) {
                Long[] boxed = new Long[n];
                for (int i = 0; i < n; i++) {
                    boxed[i] = ids[i];
                }
                statement.setArray(index, c.createArrayOf("BIGINT", boxed));
                return index + 1;
            }
            int slots = slots(n);
            for (int i = 0; i < slots; i++) {
                statement.setLong(index + i, ids[Math.min(i, n - 1)]);
            }
            return index + slots;
        }

        @Override
        public void close() throws SQLException {
            select.close();
            if (lockIds != null) {
                lockIds.close();
            }
            for (PreparedStatement statement : updates.values()) {
                statement.close();
            }
            for (PreparedStatement statement : deletes.values()) {
                statement.close();
            }
        }
    }
}
