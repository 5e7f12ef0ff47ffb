package dev.errand.bench.systems;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.bench.BenchSystem;
import dev.errand.bench.Db;
import dev.errand.bench.FillSql;
import dev.errand.bench.Probe;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.jobrunr.jobs.lambdas.JobRequest;
import org.jobrunr.jobs.lambdas.JobRequestHandler;
import org.jobrunr.jobs.mappers.JobMapper;
import org.jobrunr.scheduling.JobRequestScheduler;
import org.jobrunr.server.BackgroundJobServer;
import org.jobrunr.server.BackgroundJobServerConfiguration;
import org.jobrunr.server.JobActivator;
import org.jobrunr.storage.StorageProviderUtils.DatabaseOptions;
import org.jobrunr.storage.sql.common.DefaultSqlStorageProvider;
import org.jobrunr.storage.sql.h2.H2StorageProvider;
import org.jobrunr.storage.sql.mariadb.MariaDbStorageProvider;
import org.jobrunr.storage.sql.postgres.PostgresStorageProvider;
import org.jobrunr.utils.mapper.jackson3.Jackson3JsonMapper;

/**
 * JobRunr open source with its storage provider for the database (PostgreSQL, MariaDB or H2; its own tables,
 * created on start-up), the Jackson 3 JSON mapper, and a {@link JobRequest} whose handler calls the probe. Worker
 * count and poll interval are set on the background job server. Succeeded jobs stay in its table (JobRunr deletes
 * them after 36 hours by default).
 */
public final class JobRunrSystem implements BenchSystem {

    private static volatile Probe probe;

    private final Db db;
    private final String prefix;
    private String schema;
    private final Duration pollInterval;
    private final int workerCount;
    private final Jackson3JsonMapper jsonMapper = new Jackson3JsonMapper();
    private HikariDataSource pool;
    private DefaultSqlStorageProvider storage;
    private JobRequestScheduler scheduler;
    private BackgroundJobServer server;

    /** The task: a stamp, run by {@link NoopHandler}. Public with a no-argument constructor for JSON. */
    public static final class NoopJob implements JobRequest {
        /** The enqueue stamp, or 0. */
        public long stamp;

        /** For JSON. */
        public NoopJob() {}

        NoopJob(long stamp) {
            this.stamp = stamp;
        }

        @Override
        public Class<NoopHandler> getJobRequestHandler() {
            return NoopHandler.class;
        }
    }

    /** Runs a {@link NoopJob}: reports to the probe. */
    public static final class NoopHandler implements JobRequestHandler<NoopJob> {
        @Override
        public void run(NoopJob job) {
            Probe p = probe;
            if (p != null) {
                p.ran(job.stamp);
            }
        }
    }

    /** @param workerCount JobRunr's worker count, used instead of the scenario's worker count */
    public JobRunrSystem(Db db, String prefix, Duration pollInterval, int workerCount) {
        this.db = db;
        this.prefix = prefix;
        this.pollInterval = pollInterval;
        this.workerCount = workerCount;
    }

    @Override
    public String id() {
        return "jobrunr";
    }

    @Override
    public String version() {
        return "JobRunr " + DbSchedulerSystem.versionOf(BackgroundJobServer.class, "8.7.0") + " (poll interval "
                + pollInterval.toMillis() + " ms, " + workerCount + " workers, Jackson 3 mapper)";
    }

    @Override
    public String taskTable() {
        return qualifiedPrefix() + "jobrunr_jobs";
    }

    /**
     * The table prefix with the current schema in front. JobRunr looks for its migrations table in
     * every schema of the database when the prefix names none, so a JobRunr table left in another
     * schema (a full benchmark run's) would make it skip creating its tables in this one. Not on MariaDB:
     * JobRunr looks in the current database only there, and its driver reports no schema, so that a prefix
     * naming the database would never match the migrations table JobRunr finds.
     */
    private String qualifiedPrefix() {
        if (db.kind() == FillSql.MARIADB) {
            return prefix;
        }
        if (schema == null) {
            schema = db.queryLines("SELECT " + db.kind().currentSchema()).get(0);
        }
        return schema + "." + prefix;
    }

    @Override
    public void setUp() {
        tearDown();
        connect(DatabaseOptions.CREATE);
    }

    @Override
    public void attach() {
        connect(DatabaseOptions.SKIP_CREATE);
    }

    private void connect(DatabaseOptions options) {
        pool = db.pool(prefix + "pool", 16);
        storage = switch (db.kind()) {
            case POSTGRES -> new PostgresStorageProvider(pool, qualifiedPrefix(), options);
            case MARIADB -> new MariaDbStorageProvider(pool, qualifiedPrefix(), options);
            case H2 -> new H2StorageProvider(pool, qualifiedPrefix(), options);
        };
        storage.setJobMapper(new JobMapper(jsonMapper));
        scheduler = new JobRequestScheduler(storage);
    }

    @Override
    public void prefill(int count) {
        enqueueBatch(count);
    }

    @Override
    public void enqueueOne(long stamp) {
        scheduler.enqueue(new NoopJob(stamp));
    }

    @Override
    public void enqueueBatch(int count) {
        // JobRunr saves a stream of requests in batches of its own.
        scheduler.enqueue(Stream.generate(() -> new NoopJob(0)).limit(count));
    }

    @Override
    public void prepareWorkers(int concurrency, Probe newProbe) {
        stopWorkers();
        probe = newProbe;
        JobActivator activator = new JobActivator() {
            @Override
            public <T> T activateJob(Class<T> type) {
                try {
                    return type.getDeclaredConstructor().newInstance();
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
        };
        server = new BackgroundJobServer(
                storage,
                jsonMapper,
                activator,
                BackgroundJobServerConfiguration.usingStandardBackgroundJobServerConfiguration()
                        .andWorkerCount(workerCount)
                        .andPollInterval(pollInterval));
    }

    @Override
    public void startWorkers() {
        server.start();
    }

    @Override
    public void stopWorkers() {
        if (server != null) {
            server.stop();
            server = null;
        }
    }

    @Override
    public long remaining() {
        return db.queryLong("SELECT count(*) FROM " + taskTable() + " WHERE state IN ('ENQUEUED', 'PROCESSING',"
                + " 'SCHEDULED', 'AWAITING')");
    }

    @Override
    public void tearDown() {
        stopWorkers();
        if (storage != null) {
            storage.close();
            storage = null;
        }
        if (pool != null) {
            pool.close();
            pool = null;
        }
        // The views first: MariaDB keeps a view whose tables are gone.
        String like = prefix.replace("_", "\\_") + "%";
        List<String> views = db.queryLines("SELECT table_name FROM information_schema.views WHERE table_schema = "
                + db.kind().currentSchema() + " AND LOWER(table_name) LIKE '" + like + "'");
        for (String view : views) {
            db.execute("DROP VIEW IF EXISTS " + view + " CASCADE");
        }
        db.dropTablesStartingWith(prefix);
    }

    @Override
    public void close() {
        tearDown();
    }
}
