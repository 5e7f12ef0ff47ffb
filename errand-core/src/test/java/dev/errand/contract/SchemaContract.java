package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.TestDatabase;
import org.junit.jupiter.api.Test;

/** Migrations: Errand's own history table, idempotence, opting out, and prefix validation. */
public abstract class SchemaContract extends ErrandTestSupport {

    protected SchemaContract(TestDatabase database) {
        super(database);
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
    void tablePrefixMustBeAPlainIdentifier() {
        for (String bad : new String[] {"x; DROP TABLE users; --", "1abc", "errand-", "", "a b", "a".repeat(41),
                "\"quoted\""}) {
            assertThatThrownBy(() -> builder().tablePrefix(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("plain SQL identifier");
        }
        assertThatThrownBy(() -> builder().tablePrefix(null)).isInstanceOf(IllegalArgumentException.class);
    }
}
