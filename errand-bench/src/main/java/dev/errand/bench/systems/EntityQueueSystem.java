package dev.errand.bench.systems;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.bench.BenchSystem;
import dev.errand.bench.Db;
import dev.errand.bench.Probe;
import dev.errand.jpa.EntityQueues;
import dev.errand.jpa.queue.EntityQueueDefinition;
import jakarta.persistence.EntityManagerFactory;
import java.time.Duration;
import java.util.List;
import org.hibernate.jpa.HibernatePersistenceConfiguration;

/**
 * errand-jpa: the application's own entity as the queue. No-op items of {@link BenchItem} are processed
 * one transaction per item (lock, load, process, mark done), on Hibernate, with the default batch size.
 * A prefill writes rows as {@code save()} of {@code QueueState.pending()} leaves them ({@code next_attempt_at}
 * NULL, stamped by the node before it claims), in one INSERT … SELECT so that set-up stays fast.
 */
public final class EntityQueueSystem implements BenchSystem {

    static final String TABLE = "bench_jpa_item";
    private static final String QUEUE = "bench";

    private final Db db;
    private final Duration pollInterval;
    private HikariDataSource pool;
    private EntityManagerFactory factory;
    private EntityQueues queues;

    /** A system on {@code db} whose idle queue polls every {@code pollInterval}. */
    public EntityQueueSystem(Db db, Duration pollInterval) {
        this.db = db;
        this.pollInterval = pollInterval;
    }

    @Override
    public String id() {
        return "errand-jpa";
    }

    @Override
    public String version() {
        return "errand-jpa " + System.getProperty("bench.errand.version", "0.1.0-SNAPSHOT") + ", Hibernate "
                + org.hibernate.Version.getVersionString();
    }

    @Override
    public String taskTable() {
        return TABLE;
    }

    @Override
    public void setUp() {
        tearDown();
        pool = db.pool("bench-jpa", 16);
        factory = new HibernatePersistenceConfiguration("errand-bench-jpa")
                .managedClasses(List.of(BenchItem.class))
                .property("hibernate.connection.datasource", pool)
                .property("hibernate.hbm2ddl.auto", "create")
                .createEntityManagerFactory();
    }

    @Override
    public void prefill(int count) {
        db.execute("INSERT INTO " + TABLE + " (version, stamp, status, next_attempt_at, attempts)"
                + " SELECT 0, 0, 'PENDING', NULL, 0 FROM generate_series(1, " + count + ")");
    }

    @Override
    public void enqueueOne(long stamp) {
        factory.runInTransaction(em -> em.persist(new BenchItem(stamp)));
    }

    @Override
    public void enqueueBatch(int count) {
        factory.runInTransaction(em -> {
            for (int i = 0; i < count; i++) {
                em.persist(new BenchItem(0));
            }
        });
    }

    @Override
    public void prepareWorkers(int concurrency, Probe probe) {
        closeQueues();
        queues = EntityQueues.builder(factory)
                .register(EntityQueueDefinition.builder(
                                BenchItem.class, "state", (item, context) -> probe.ran(item.stamp()))
                        .name(QUEUE)
                        .concurrency(concurrency)
                        .pollInterval(pollInterval)
                        .build())
                .build();
    }

    @Override
    public void startWorkers() {
        queues.start();
    }

    @Override
    public void stopWorkers() {
        closeQueues();
    }

    private void closeQueues() {
        if (queues != null) {
            queues.stop(Duration.ofSeconds(10));
            queues = null;
        }
    }

    @Override
    public long remaining() {
        return db.queryLong("SELECT count(*) FROM " + TABLE + " WHERE status IN ('PENDING', 'IN_PROGRESS')");
    }

    @Override
    public void tearDown() {
        closeQueues();
        if (factory != null) {
            factory.close();
            factory = null;
        }
        if (pool != null) {
            pool.close();
            pool = null;
        }
        db.dropTablesStartingWith(TABLE);
    }

    @Override
    public void close() {
        tearDown();
    }
}
