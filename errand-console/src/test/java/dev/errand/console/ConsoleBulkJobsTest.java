package dev.errand.console;

import static dev.errand.console.ConsoleApiTest.awaitState;
import static dev.errand.console.ConsoleApiTest.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.console.testing.ConsoleClient;
import dev.errand.console.testing.ConsoleClient.Answer;
import dev.errand.console.testing.ConsoleTestApp;
import dev.errand.console.testing.RunningApp;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.TaskState;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Bulk actions in the background through the API on PostgreSQL, where a table lock held by another transaction
 * keeps a job running for as long as the test needs: the POST answers 202 at once while the job waits, a second
 * one past {@code errand.console.bulk-jobs} is refused with 429 and starts nothing, and the job finishes once the
 * lock is gone.
 */
class ConsoleBulkJobsTest {

    @Test
    void aBulkActionAnswersAtOnceAndOnePastTheBoundIsRefused() throws Exception {
        try (RunningApp app =
                RunningApp.start(TestDatabase.POSTGRES, "test.security=app-chain", "errand.console.bulk-jobs=1")) {
            Errand errand = app.errand();
            ConsoleTestApp.FAILING.set(true);
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                ids.add(errand.enqueue(TaskRequest.of(ConsoleTestApp.FLAKY, Map.of("n", i)))
                        .id());
            }
            ids.forEach(id -> awaitState(errand, id, TaskState.FAILED));
            ConsoleTestApp.FAILING.set(false);
            ConsoleClient admin = new ConsoleClient(app.baseUrl() + "/errand", "admin", ConsoleTestApp.PASSWORD);
            assertThat(admin.session().status()).isEqualTo(200);
            long upToId = ok(admin.get("/api/tasks/bulk-count?state=failed&kind=flaky"))
                    .get("highestId")
                    .asLong();
            String body = "{\"filter\":{\"state\":\"failed\",\"kind\":\"flaky\"},\"upToId\":" + upToId + "}";

            DataSource dataSource = app.context().getBean(DataSource.class);
            String jobId;
            try (Connection locker = dataSource.getConnection()) {
                locker.setAutoCommit(false);
                try (Statement lock = locker.createStatement()) {
                    lock.execute("LOCK TABLE " + app.prefix() + "task IN ACCESS EXCLUSIVE MODE");
                }
                Answer started = admin.post("/api/tasks/bulk/retry", body);
                assertThat(started.status()).as(started.body()).isEqualTo(202);
                jobId = started.json().get("id").asString();
                assertThat(started.json().get("state").asString()).isEqualTo("running");

                Answer refused = admin.post("/api/tasks/bulk/delete", "{\"filter\":{},\"upToId\":" + upToId + "}");
                assertThat(refused.status()).as(refused.body()).isEqualTo(429);
                assertThat(refused.json().get("message").asString())
                        .contains("errand.console.bulk-jobs")
                        .contains("wait for one to end");
                JsonNode running = ok(admin.get("/api/bulk-jobs/" + jobId));
                assertThat(running.get("state").asString()).isEqualTo("running");
                assertThat(running.get("matched").asLong()).isZero();
                assertThat(ok(admin.get("/api/bulk-jobs")).get("items")).hasSize(1);
                locker.rollback();
            }
            await().atMost(Duration.ofSeconds(20))
                    .until(
                            () -> ok(admin.get("/api/bulk-jobs/" + jobId))
                                    .get("state")
                                    .asString(),
                            "finished"::equals);
            JsonNode finished = ok(admin.get("/api/bulk-jobs/" + jobId));
            assertThat(finished.get("total").asLong()).isEqualTo(3);
            assertThat(finished.get("changed").asLong()).isEqualTo(3);
            assertThat(finished.get("startedBy").asString()).isEqualTo("admin");
            ids.forEach(id -> awaitState(errand, id, TaskState.SUCCEEDED));
            assertThat(errand.admin().find(ids.get(0)))
                    .as("the refused delete did nothing")
                    .isPresent();
        }
    }
}
