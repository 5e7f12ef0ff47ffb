package dev.errand.console;

import static dev.errand.console.ConsoleApiTest.awaitState;
import static dev.errand.console.ConsoleApiTest.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.console.testing.ConsoleClient;
import dev.errand.console.testing.ConsoleTestApp;
import dev.errand.console.testing.RunningApp;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.TaskState;
import dev.errand.testkit.TestDatabase;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * The overview's throughput without the attempt history: the counts the nodes write with their heartbeat, on
 * every database.
 */
class ConsoleThroughputTest {

    static Stream<TestDatabase> databases() {
        return TestDatabase.selected().stream().filter(database -> database != TestDatabase.H2_UNPOOLED);
    }

    @ParameterizedTest
    @MethodSource("databases")
    void withTheHistoryOffTheOverviewShowsTheNodesCounts(TestDatabase database) {
        try (RunningApp app = RunningApp.start(
                database,
                "test.security=app-chain",
                "errand.history-enabled=false",
                "errand.heartbeat-interval=300ms")) {
            long id = app.errand()
                    .enqueue(TaskRequest.of(ConsoleTestApp.WORK, Map.of()))
                    .id();
            awaitState(app.errand(), id, TaskState.SUCCEEDED);
            ConsoleClient viewer = new ConsoleClient(app.baseUrl() + "/errand", "viewer", ConsoleTestApp.PASSWORD);
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                JsonNode throughput = ok(viewer.get("/api/overview")).get("throughput");
                assertThat(throughput.get("source").asString()).isEqualTo("nodes");
                assertThat(throughput.get("buckets")).hasSize(60);
                long succeeded = 0;
                for (JsonNode bucket : throughput.get("buckets")) {
                    succeeded += bucket.get("succeeded").asLong();
                }
                assertThat(succeeded).isGreaterThanOrEqualTo(1);
            });
        }
    }
}
