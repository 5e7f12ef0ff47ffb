package dev.errand.bench.systems;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.bench.BenchSystem;
import dev.errand.bench.Db;
import dev.errand.bench.Probe;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
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
 */
public final class RawSqlSystem implements BenchSystem {

    private static final int CLAIM_BATCH = 100;

    private final Db db;
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
        return "JDBC, PostgreSQL driver " + org.postgresql.util.DriverInfo.DRIVER_VERSION;
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
        db.execute(ErrandSystem.prefillSql(db, prefix, count, 5, "0"));
    }

    @Override
    public void enqueueOne(long stamp) throws SQLException {
        try (PreparedStatement insert = enqueueConnection.prepareStatement("INSERT INTO " + taskTable()
                + " (kind, queue, payload, priority, run_at, max_attempts) VALUES ('noop', 'default',"
                + " CAST(? AS jsonb), 5, statement_timestamp(), 5)")) {
            insert.setString(1, "{\"t\":" + stamp + "}");
            insert.executeUpdate();
        }
    }

    @Override
    public void enqueueBatch(int count) throws SQLException {
        String[] payloads = new String[count];
        java.util.Arrays.fill(payloads, "{\"t\":0}");
        try (PreparedStatement insert = enqueueConnection.prepareStatement("INSERT INTO " + taskTable()
                + " (kind, queue, payload, priority, run_at, max_attempts) SELECT 'noop', 'default',"
                + " CAST(p AS jsonb), 5, statement_timestamp(), 5 FROM unnest(CAST(? AS text[])) AS p")) {
            insert.setArray(1, enqueueConnection.createArrayOf("text", payloads));
            insert.executeUpdate();
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
        String claimSql = "UPDATE " + table + " SET state = 'running', attempt = attempt + 1, version = version + 1,"
                + " lease_owner = 'raw', lease_token = ?, lease_expires_at = statement_timestamp() + interval '60 seconds',"
                + " started_at = statement_timestamp() WHERE id IN (SELECT id FROM " + table
                + " WHERE state = 'pending' AND queue = 'default' AND run_at <= statement_timestamp()"
                + " ORDER BY priority, run_at LIMIT ? FOR UPDATE SKIP LOCKED) RETURNING id, payload";
        try (Connection c = DriverManager.getConnection(db.url(), db.user(), db.password());
                PreparedStatement claim = c.prepareStatement(claimSql);
                PreparedStatement completeAll = c.prepareStatement(
                        "DELETE FROM " + table + " WHERE id = ANY(?) AND lease_token = ? AND state = 'running'");
                PreparedStatement lock =
                        c.prepareStatement("UPDATE " + table + " SET started_at = statement_timestamp()"
                                + " WHERE id = ? AND lease_token = ? AND state = 'running'");
                PreparedStatement completeOne = c.prepareStatement(
                        "DELETE FROM " + table + " WHERE id = ? AND lease_token = ? AND state = 'running'");
                PreparedStatement effect = c.prepareStatement(ErrandSystem.effectInsertSql(prefix))) {
            long[] ids = new long[batch];
            long[] stamps = new long[batch];
            while (running) {
                long token = ThreadLocalRandom.current().nextLong();
                claim.setLong(1, token);
                claim.setInt(2, batch);
                int n = 0;
                try (ResultSet rows = claim.executeQuery()) {
                    while (rows.next()) {
                        ids[n] = rows.getLong(1);
                        stamps[n++] = stampOf(rows.getString(2));
                    }
                }
                if (n == 0) {
                    Thread.sleep(2);
                    continue;
                }
                if (transactional) {
                    for (int i = 0; i < n; i++) {
                        c.setAutoCommit(false);
                        lock.setLong(1, ids[i]);
                        lock.setLong(2, token);
                        if (lock.executeUpdate() == 1) {
                            probe.ran(stamps[i]);
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
                        c.setAutoCommit(true);
                    }
                } else {
                    Long[] boxed = new Long[n];
                    for (int i = 0; i < n; i++) {
                        probe.ran(stamps[i]);
                        boxed[i] = ids[i];
                    }
                    completeAll.setArray(1, c.createArrayOf("bigint", boxed));
                    completeAll.setLong(2, token);
                    completeAll.executeUpdate();
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
}
