package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.enqueue.TaskRequest;
import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.Dialects;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The look-up of a unique key's active holder (after a refused insert: a duplicate enqueue, a schedule slot
 * already written) goes through the unique index on every database. On MariaDB and H2 that index is on the
 * generated {@code active_unique_key}; a condition on {@code unique_key} scanned the whole task table there.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class UniqueKeyLookupPlanTest extends ErrandTestSupport {

    UniqueKeyLookupPlanTest(Target target) {
        super(target);
    }

    @Test
    void theActiveHolderOfAKeyIsFoundThroughTheUniqueIndex() throws Exception {
        var errand = node(builder()
                .register(TaskDefinition.builder("lookup", String.class, (payload, ctx) -> {})
                        .build()));
        List<TaskRequest> requests = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            requests.add(
                    TaskRequest.builder("lookup", "x").uniqueKey("key-" + i).build());
        }
        errand.enqueueAll(requests);
        Dialect dialect = Dialects.detect(dataSource());
        String lookup = "SELECT id FROM " + prefix + "task WHERE "
                + dialect.activeUniqueKeyCondition().replace("?", "'key-777'");
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            if (database == TestDatabase.POSTGRES) {
                // Whether the partial index's predicate is proved, not which plan 2,000 rows make cheapest.
                s.execute("SET enable_seqscan = off");
                s.execute("ANALYZE " + prefix + "task");
            } else if (database == TestDatabase.MARIADB) {
                s.execute("ANALYZE TABLE " + prefix + "task");
            }
            assertThat(plan(s, "EXPLAIN " + lookup).toLowerCase())
                    .as(lookup)
                    .contains((prefix + "task_unique_key_idx").toLowerCase());
            if (database == TestDatabase.POSTGRES) {
                s.execute("RESET enable_seqscan");
            }
        }
    }

    private static String plan(Statement s, String explain) throws Exception {
        StringBuilder plan = new StringBuilder();
        try (ResultSet rows = s.executeQuery(explain)) {
            int columns = rows.getMetaData().getColumnCount();
            while (rows.next()) {
                for (int i = 1; i <= columns; i++) {
                    plan.append(rows.getString(i)).append(' ');
                }
                plan.append('\n');
            }
        }
        return plan.toString();
    }
}
