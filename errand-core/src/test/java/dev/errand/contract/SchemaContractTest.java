package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** Migrations: Errand's own history table, idempotence, opting out, and prefix validation. */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class SchemaContractTest extends ErrandTestSupport {

    SchemaContractTest(Target target) {
        super(target);
    }

    @Test
    void migrationsUseTheirOwnHistoryTableAndRunOnce() throws Exception {
        node(builder());
        long applied = scalar("SELECT COUNT(*) FROM " + prefix + "schema_history");
        node(builder());
        assertThat(applied).isPositive();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "schema_history")).isEqualTo(applied);
        assertThat(taskRows()).isZero();
    }

    @Test
    void migrationsCanBeTurnedOffForTeamsThatRunTheirOwnDdl() {
        Errand errand = node(builder().migrationsEnabled(false));
        assertThatThrownBy(() -> errand.enqueue(TaskRequest.of("k", 1)))
                .satisfies(e -> assertThat(e.getMessage().toLowerCase()).contains(prefix + "task"));
    }

    @Test
    void mixedCasePrefixWorksWithUnquotedSql() throws Exception {
        String mixed = "Mx" + prefix;
        try {
            Errand errand = node(builder().tablePrefix(mixed));
            errand.enqueue(TaskRequest.of("k", 1));
            assertThat(scalar("SELECT COUNT(*) FROM " + mixed + "task")).isEqualTo(1);
            assertThat(scalar("SELECT COUNT(*) FROM " + mixed + "schema_history"))
                    .isPositive();
        } finally {
            database.dropTables(mixed);
        }
    }

    @Test
    void failedMigrationStopsStartUpWithAHint() throws Exception {
        try (var c = dataSource().getConnection();
                var s = c.createStatement()) {
            // A task table that Errand's history does not know about: V1 cannot create it again.
            s.execute("CREATE TABLE " + prefix + "task (id BIGINT)");
        }
        assertThatThrownBy(() -> builder().build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("could not apply its migrations")
                .hasMessageContaining("migrationsEnabled(false)");
    }

    @Test
    void aStoppedNodeStartsAgainInTheSameJvm() {
        // Since the cluster issue (13) a stop is no longer final: start() builds a fresh engine.
        Errand errand = node(builder());
        errand.start();
        errand.stop();
        assertThat(errand.isRunning()).isFalse();
        errand.start();
        assertThat(errand.isRunning()).isTrue();
    }

    @Test
    void tablePrefixMustBeAPlainIdentifier() {
        for (String bad :
                new String[] {"x; DROP TABLE users; --", "1abc", "errand-", "", "a b", "a".repeat(41), "\"quoted\""}) {
            assertThatThrownBy(() -> builder().tablePrefix(bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("plain SQL identifier");
        }
        assertThatThrownBy(() -> builder().tablePrefix(null)).isInstanceOf(IllegalArgumentException.class);
    }
}
