package dev.errand.examples.plain;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The plain-Java demo runs to the end on its H2 file database and its own cross-checks pass; its failure
 * callback recorded each failed notice with the reason taken from the structured failure cause.
 */
class PlainDemoTest {

    @Test
    void runsAndTheTaskTableAndTheBusinessTablesAgree() throws Exception {
        Path directory = Path.of("target", "plain-demo-test", UUID.randomUUID().toString())
                .toAbsolutePath();

        assertThat(PlainDemo.run(directory)).as("the demo's own checks").isTrue();

        List<String> kinds = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        long failedTasks;
        try (Connection connection =
                        DriverManager.getConnection("jdbc:h2:file:" + directory.resolve("errand"), "sa", "");
                Statement statement = connection.createStatement()) {
            try (ResultSet rows = statement.executeQuery("SELECT kind, error FROM demo_failure")) {
                while (rows.next()) {
                    kinds.add(rows.getString(1));
                    errors.add(rows.getString(2));
                }
            }
            try (ResultSet row = statement.executeQuery("SELECT COUNT(*) FROM errand_task WHERE state = 'failed'")) {
                row.next();
                failedTasks = row.getLong(1);
            }
        }
        // About 1 in 27 of the 240 notices fails for good (none does once in some 8,600 runs); a report fails
        // only if it crashes on all 4 attempts (1 in 10,000 each).
        assertThat(errors).hasSize((int) failedTasks).isNotEmpty();
        for (int i = 0; i < errors.size(); i++) {
            assertThat(errors.get(i))
                    .as("the reason recorded for a failed %s", kinds.get(i))
                    .matches(
                            kinds.get(i).equals(DemoTasks.NOTIFY_PARTNER.name())
                                    ? "IOException: Partner \\w+ answered 503 for order \\d+"
                                    : "IllegalStateException: Report renderer crashed after writing report \\d+"
                                            + " \\(attempt 4\\); the row rolls back with the attempt");
        }
    }
}
