package dev.errand.stress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.internal.store.Dialects;
import dev.errand.internal.store.Transactions;
import dev.errand.spi.TaskListener;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A real deadlock, made on purpose: two transactions lock two rows in opposite order. The database
 * kills one; Errand's transaction helper must run it again transparently and count it.
 */
class LockConflictRetryTest {

    @ParameterizedTest
    @EnumSource(
            value = TestDatabase.class,
            names = {"POSTGRES", "MARIADB"})
    void aDeadlockedTransactionRunsAgainAndIsCounted(TestDatabase database) throws Exception {
        DataSource dataSource = database.dataSource();
        String table = "deadlock_" + Long.toString(System.nanoTime(), 36);
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, n INT)");
            s.execute("INSERT INTO " + table + " VALUES (1, 0), (2, 0)");
        }
        AtomicInteger reported = new AtomicInteger();
        TaskListener listener = new TaskListener() {
            @Override
            public void lockConflictRetried(String operation) {
                reported.incrementAndGet();
            }
        };
        Transactions transactions;
        try (Connection c = dataSource.getConnection()) {
            var meta = c.getMetaData();
            transactions = new Transactions(
                    dataSource,
                    Dialects.forProduct(
                            meta.getDatabaseProductName(),
                            meta.getDatabaseProductVersion(),
                            meta.getDatabaseMajorVersion(),
                            meta.getDatabaseMinorVersion()),
                    listener);
        }
        CyclicBarrier bothHoldTheirFirstRow = new CyclicBarrier(2);
        AtomicInteger firstTries = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Integer> forward = pool.submit(() -> transactions.run("test", c -> {
                boolean first = firstTries.getAndIncrement() < 2;
                update(c, table, 1);
                if (first) {
                    bothHoldTheirFirstRow.await(10, TimeUnit.SECONDS);
                }
                return update(c, table, 2);
            }));
            Future<Integer> backward = pool.submit(() -> transactions.run("test", c -> {
                boolean first = firstTries.getAndIncrement() < 2;
                update(c, table, 2);
                if (first) {
                    bothHoldTheirFirstRow.await(10, TimeUnit.SECONDS);
                }
                return update(c, table, 1);
            }));
            assertThat(forward.get(30, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(backward.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
        assertThat(transactions.lockConflictRetries()).isGreaterThanOrEqualTo(1);
        assertThat(reported.get()).isEqualTo((int) transactions.lockConflictRetries());
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                var rows = s.executeQuery("SELECT SUM(n) FROM " + table)) {
            rows.next();
            assertThat(rows.getInt(1))
                    .as("both transactions committed once each")
                    .isEqualTo(4);
            s.execute("DROP TABLE " + table);
        }
    }

    private static int update(Connection c, String table, int id) throws Exception {
        try (Statement s = c.createStatement()) {
            return s.executeUpdate("UPDATE " + table + " SET n = n + 1 WHERE id = " + id);
        }
    }
}
