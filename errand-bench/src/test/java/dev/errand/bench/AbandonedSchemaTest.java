package dev.errand.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A run killed before its clean-up leaves its own schema; a later run drops it once it is more than a day old, and
 * leaves a younger run's schema and every schema it did not name alone.
 */
class AbandonedSchemaTest {

    private final Db db = Db.fromSystemProperties();
    private final LocalDateTime now = LocalDateTime.now(ZoneOffset.UTC);
    private final String old = own(now.minusDays(2), 424242);
    private final String young = own(now.minusHours(1), 434343);
    private final String foreign =
            "errand_bench_kept_" + ProcessHandle.current().pid();

    private static String own(LocalDateTime at, long pid) {
        return "errand_bench_" + at.format(DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss")) + "_" + pid;
    }

    @AfterEach
    void dropAll() {
        for (String schema : List.of(old, young, foreign)) {
            db.dropSchema(schema);
        }
        if (Db.schemaIsThisRunsOwn()) {
            db.dropSchema(Db.schema());
        }
    }

    @Test
    void aDayOldSchemaOfAKilledRunIsDroppedAndNothingElse() {
        for (String schema : List.of(old, young, foreign)) {
            db.execute("CREATE SCHEMA " + schema);
            db.execute("CREATE TABLE " + schema + ".left_behind (id INT)");
        }

        List<String> dropped = db.dropAbandonedSchemas(now);

        assertThat(dropped).contains(old).doesNotContain(young, foreign);
        List<String> left = db.queryLines("SELECT schema_name FROM information_schema.schemata");
        assertThat(left).doesNotContain(old).contains(young, foreign);
    }
}
