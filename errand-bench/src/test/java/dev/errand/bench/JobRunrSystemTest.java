package dev.errand.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.bench.systems.JobRunrSystem;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * JobRunr's table creator looks for its migrations table in every schema of the database. A JobRunr
 * table that a full benchmark run left in another schema of the same database must not stop the system
 * from creating its own tables in the benchmark's schema (it did, and every JobRunr trial of the smoke
 * test failed with "relation bench_jr_jobrunr_migrations does not exist").
 */
class JobRunrSystemTest {

    private static final String OTHER = "errand_bench_jobrunr_elsewhere";

    private final Db db = Db.fromSystemProperties();

    @AfterEach
    void dropSchemas() {
        db.dropSchema(OTHER);
        if (Db.schemaIsThisRunsOwn()) {
            db.dropSchema(Db.schema());
        }
    }

    @Test
    void createsItsTablesAlthoughAnotherSchemaHoldsJobRunrTables() {
        db.execute(
                "CREATE SCHEMA IF NOT EXISTS " + OTHER,
                "CREATE TABLE IF NOT EXISTS " + OTHER + ".bench_jrt_jobrunr_migrations (id CHAR(36))");

        try (JobRunrSystem system = new JobRunrSystem(db, "bench_jrt_", Duration.ofMillis(500), 2)) {
            system.setUp();
            system.enqueueOne(0);
            system.enqueueOne(0);

            assertThat(system.remaining()).isEqualTo(2);
            assertThat(db.queryLong("SELECT count(*) FROM information_schema.tables WHERE table_schema ="
                            + " current_schema() AND table_name = 'bench_jrt_jobrunr_migrations'"))
                    .isEqualTo(1);
        }
    }
}
