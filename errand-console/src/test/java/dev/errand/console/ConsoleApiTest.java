package dev.errand.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.admin.TaskQuery;
import dev.errand.batch.BatchEvent;
import dev.errand.batch.BatchRequest;
import dev.errand.console.testing.ConsoleClient;
import dev.errand.console.testing.ConsoleClient.Answer;
import dev.errand.console.testing.ConsoleTestApp;
import dev.errand.console.testing.RunningApp;
import dev.errand.enqueue.TaskRequest;
import dev.errand.schedule.Schedule;
import dev.errand.task.TaskState;
import dev.errand.testkit.TestDatabase;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * The console's JSON API against a running application on PostgreSQL, MariaDB and H2, as curl would call it
 * (HTTP Basic, a cookie jar, the CSRF token from the session): every page's endpoint, the actions, and bad
 * input, which gets a 4xx with a message and changes nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleApiTest {

    private final Map<TestDatabase, RunningApp> apps = new EnumMap<>(TestDatabase.class);

    static Stream<TestDatabase> databases() {
        return TestDatabase.selected().stream().filter(database -> database != TestDatabase.H2_UNPOOLED);
    }

    private RunningApp app(TestDatabase database) {
        return apps.computeIfAbsent(database, d -> RunningApp.start(d, "test.security=app-chain"));
    }

    private ConsoleClient admin(RunningApp app) {
        ConsoleClient client = new ConsoleClient(app.baseUrl() + "/errand", "admin", ConsoleTestApp.PASSWORD);
        assertThat(client.session().status()).isEqualTo(200);
        return client;
    }

    @AfterAll
    void stop() {
        apps.values().forEach(RunningApp::close);
    }

    @ParameterizedTest
    @MethodSource("databases")
    void everyPageHasAJsonEndpoint(TestDatabase database) {
        RunningApp app = app(database);
        Errand errand = app.errand();
        ConsoleTestApp.FAILING.set(true);
        long failed = errand.enqueue(TaskRequest.of(ConsoleTestApp.FLAKY, Map.of("to", "+100")))
                .id();
        long waiting = errand.enqueue(TaskRequest.builder(ConsoleTestApp.WORK, Map.of())
                        .condition("paid:" + database)
                        .build())
                .id();
        long batch = errand.enqueueBatch(BatchRequest.builder()
                        .add(TaskRequest.of(ConsoleTestApp.WORK, Map.of("n", 1)))
                        .add(TaskRequest.of(ConsoleTestApp.WORK, Map.of("n", 2)))
                        .on(BatchEvent.COMPLETE, id -> TaskRequest.of(ConsoleTestApp.WORK, Map.of("done", id)))
                        .build())
                .id();
        errand.schedules()
                .upsert(Schedule.every("hourly", ConsoleTestApp.WORK, Duration.ofHours(1))
                        .build());
        awaitState(errand, failed, TaskState.FAILED);
        ConsoleClient client = admin(app);

        JsonNode session = client.session().json();
        assertThat(session.get("user").asString()).isEqualTo("admin");
        assertThat(session.get("canAct").asBoolean()).isTrue();

        JsonNode overview = ok(client.get("/api/overview"));
        assertThat(overview.get("states").get("failed").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(overview.get("node").get("id").asString()).isEqualTo("console-test");
        assertThat(overview.get("leader").asString()).isEqualTo("console-test");
        assertThat(overview.get("queues").toString()).contains("\"queue\":\"default\"");
        assertThat(overview.get("kinds").toString()).contains("\"kind\":\"flaky\"");
        assertThat(overview.get("throughput").get("buckets")).hasSize(60);
        assertThat(overview.get("throughput").get("bucketSeconds").asLong()).isEqualTo(60);
        assertThat(overview.get("throughput").get("source").asString()).isEqualTo("history");
        // The counts are the cluster's stored snapshot, with their time and age; a small table is counted afresh.
        assertThat(java.time.Instant.parse(overview.get("countedAt").asString()))
                .isBeforeOrEqualTo(
                        java.time.Instant.parse(overview.get("databaseTime").asString())
                                .plusSeconds(1));
        assertThat(overview.get("countsAgeSeconds").asDouble()).isBetween(0.0, 30.0);
        assertThat(overview.get("countsRecounting").isBoolean()).isTrue();

        JsonNode failedTasks = ok(client.get("/api/tasks?state=failed&kind=flaky"));
        assertThat(failedTasks.get("count").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(failedTasks.get("countExact").asBoolean()).isTrue();
        assertThat(failedTasks.get("items").get(0).get("lastError").asString()).contains("gateway down");
        assertThat(failedTasks.get("withinSeconds").isNull()).isTrue();
        // A search of error text looks at tasks that ended in the last hour, unless given a time range, a window,
        // or a state that has not ended; the bulk count selects the same tasks.
        JsonNode byError = ok(client.get("/api/tasks?error=gateway+down&order=desc"));
        assertThat(byError.get("withinSeconds").asLong()).isEqualTo(3600);
        assertThat(byError.get("items").get(0).get("id").asLong()).isEqualTo(failed);
        assertThat(ok(client.get("/api/tasks/bulk-count?error=gateway+down"))
                        .get("withinSeconds")
                        .asLong())
                .isEqualTo(3600);
        assertThat(ok(client.get("/api/tasks?error=gateway+down&within=all"))
                        .get("withinSeconds")
                        .isNull())
                .isTrue();
        assertThat(ok(client.get("/api/tasks?error=gateway+down&state=pending"))
                        .get("withinSeconds")
                        .isNull())
                .isTrue();
        assertThat(ok(client.get("/api/tasks?error=gateway+down&createdFrom=2020-01-01T00:00:00Z"))
                        .get("withinSeconds")
                        .isNull())
                .isTrue();
        JsonNode lastWeek = ok(client.get("/api/tasks?within=P7D"));
        assertThat(lastWeek.get("withinSeconds").asLong()).isEqualTo(604_800);
        List<Long> endedLastWeek = new ArrayList<>();
        lastWeek.get("items").forEach(item -> endedLastWeek.add(item.get("id").asLong()));
        assertThat(endedLastWeek).contains(failed).doesNotContain(waiting);

        JsonNode task = ok(client.get("/api/tasks/" + failed));
        assertThat(task.get("task").get("payload").get("to").asString()).isEqualTo("+100");
        assertThat(task.get("task").get("state").asString()).isEqualTo("failed");
        assertThat(task.get("actions").toString()).contains("retry", "delete");
        assertThat(task.get("attempts").get(0).get("outcome").asString()).isEqualTo("failed");
        assertThat(task.get("attempts").get(0).get("logs").asString()).contains("trying to reach the gateway");
        assertThat(task.get("chain").get(0).asLong()).isEqualTo(failed);

        assertThat(ok(client.get("/api/schedules")).get("items").toString()).contains("\"name\":\"hourly\"");
        assertThat(ok(client.get("/api/processes")).get("items").isArray()).isTrue();
        JsonNode events = ok(client.get("/api/events"));
        assertThat(events.get("byEvent").toString()).contains("paid:" + database);
        assertThat(events.get("waiting").toString()).contains("\"id\":" + waiting);
        JsonNode cluster = ok(client.get("/api/cluster"));
        assertThat(cluster.get("nodes").get(0).get("nodeId").asString()).isEqualTo("console-test");
        assertThat(ok(client.get("/api/history?kind=flaky&outcome=failed"))
                        .get("total")
                        .asLong())
                .isGreaterThanOrEqualTo(1);
        // The total is counted up to 10,000 unless asked otherwise; past the bound it is a lower bound.
        JsonNode history = ok(client.get("/api/history"));
        assertThat(history.get("totalExact").asBoolean()).isTrue();
        JsonNode bounded = ok(client.get("/api/history?limit=1&countUpTo=1"));
        assertThat(history.get("total").asLong()).isGreaterThanOrEqualTo(2);
        assertThat(bounded.get("totalExact").asBoolean()).isFalse();
        assertThat(bounded.get("total").asLong()).isEqualTo(2);
        assertThat(bounded.get("hasNext").asBoolean()).isTrue();
        // A search of error text looks at the last hour unless given a range or a window.
        assertThat(ok(client.get("/api/history?error=said"))
                        .get("withinSeconds")
                        .asLong())
                .isEqualTo(3600);
        assertThat(ok(client.get("/api/history?error=said&within=all"))
                        .get("withinSeconds")
                        .isNull())
                .isTrue();
        assertThat(ok(client.get("/api/history?within=P7D"))
                        .get("withinSeconds")
                        .asLong())
                .isEqualTo(604_800);
        assertThat(history.get("withinSeconds").isNull()).isTrue();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            JsonNode progress = ok(client.get("/api/batches/" + batch));
            assertThat(progress.get("finished").asBoolean()).isTrue();
            assertThat(progress.get("firedCallbacks").has("complete")).isTrue();
        });
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aFailedTaskIsRetriedAndSucceeds(TestDatabase database) {
        RunningApp app = app(database);
        ConsoleTestApp.FAILING.set(true);
        long id = app.errand()
                .enqueue(TaskRequest.of(ConsoleTestApp.FLAKY, Map.of()))
                .id();
        awaitState(app.errand(), id, TaskState.FAILED);
        ConsoleTestApp.FAILING.set(false);
        ConsoleClient client = admin(app);

        assertThat(ok(client.post("/api/tasks/" + id + "/retry", null))
                        .get("result")
                        .asString())
                .isEqualTo("done");
        awaitState(app.errand(), id, TaskState.SUCCEEDED);

        Answer again = client.post("/api/tasks/" + id + "/retry", null);
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.json().get("message").asString()).contains("is succeeded", "failed or cancelled");
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aPendingTaskIsRescheduledCancelledAndDeleted(TestDatabase database) {
        RunningApp app = app(database);
        Errand errand = app.errand();
        long id = errand.enqueue(TaskRequest.builder(ConsoleTestApp.WORK, Map.of())
                        .delay(Duration.ofHours(1))
                        .build())
                .id();
        ConsoleClient client = admin(app);

        Instant later = Instant.parse("2099-01-01T00:00:00Z");
        ok(client.post("/api/tasks/" + id + "/reschedule", "{\"runAt\":\"" + later + "\"}"));
        assertThat(errand.admin().find(id).orElseThrow().runAt()).isEqualTo(later);

        ok(client.post("/api/tasks/" + id + "/cancel", null));
        assertThat(errand.admin().find(id).orElseThrow().state()).isEqualTo(TaskState.CANCELLED);
        assertThat(client.post("/api/tasks/" + id + "/cancel", null).status()).isEqualTo(409);
        assertThat(client.post("/api/tasks/" + id + "/request-cancel", null).status())
                .isEqualTo(409);

        ok(client.delete("/api/tasks/" + id));
        assertThat(errand.admin().find(id)).isEmpty();
        assertThat(client.delete("/api/tasks/" + id).status()).isEqualTo(404);
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aKindsMaxAttemptsChangedThroughTheConsoleAppliesToNewTasksAndIsAudited(TestDatabase database) {
        RunningApp app = app(database);
        Errand errand = app.errand();
        ConsoleClient client = admin(app);
        ok(client.post(
                "/api/kinds/change",
                "{\"kind\":\"" + ConsoleTestApp.WORK + "\",\"maxAttempts\":9,\"retryDelayMillis\":60000}"));
        JsonNode cluster = ok(client.get("/api/cluster"));
        assertThat(cluster.get("kindControls").toString())
                .contains("\"kind\":\"" + ConsoleTestApp.WORK + "\",\"maxAttempts\":9");
        assertThat(cluster.get("changes").get(0).get("actor").asString()).isEqualTo("console:admin");
        assertThat(cluster.get("changes").get(0).get("detail").asString()).startsWith("maxAttempts=9, retryPolicy=");
        // The node applies it at the reload command, within a heartbeat.
        await().atMost(Duration.ofSeconds(10))
                .until(() -> errand.admin()
                                .find(errand.enqueue(TaskRequest.builder(ConsoleTestApp.WORK, Map.of())
                                                .delay(Duration.ofHours(1))
                                                .build())
                                        .id())
                                .orElseThrow()
                                .maxAttempts()
                        == 9);
        assertError(client.post("/api/kinds/change", "{\"kind\":\"work\",\"maxAttempts\":0}"), 400, "maxAttempts");
        assertError(client.post("/api/kinds/change", "{\"kind\":\"work\"}"), 400, "at least one of");
        assertError(client.post("/api/kinds/change", "{\"maxAttempts\":3}"), 400, "needs the text field \"kind\"");
        ok(client.post("/api/kinds/reset", "{\"kind\":\"" + ConsoleTestApp.WORK + "\"}"));
        assertThat(errand.cluster().kindControls()).isEmpty();

        // A flow limit set at run time shows with its use, and goes back to the declared one.
        ok(client.post("/api/flow/change", "{\"kind\":\"" + ConsoleTestApp.WORK + "\",\"concurrency\":3}"));
        assertThat(ok(client.get("/api/cluster")).get("flowLimits").toString())
                .contains("\"kind\":\"" + ConsoleTestApp.WORK + "\",\"concurrency\":3,\"concurrencyOverridden\":true");
        assertError(
                client.post("/api/flow/change", "{\"kind\":\"work\",\"concurrency\":1,\"perKey\":1}"),
                400,
                "exactly one of");
        assertError(client.post("/api/flow/change", "{\"kind\":\"work\",\"concurrency\":0}"), 400, "");
        ok(client.post("/api/flow/reset", "{\"kind\":\"" + ConsoleTestApp.WORK + "\"}"));
        assertThat(ok(client.get("/api/cluster")).get("flowLimits").toString())
                .doesNotContain("\"concurrencyOverridden\":true");
        // A retention set at run time for the whole cluster, listed, then reset.
        ok(client.post("/api/retentions/change", "{\"retention\":\"failed-tasks\",\"ageSeconds\":7200}"));
        JsonNode withRetention = ok(client.get("/api/cluster"));
        assertThat(withRetention
                        .get("retentionControls")
                        .get(0)
                        .get("retention")
                        .asString())
                .isEqualTo("failed-tasks");
        assertThat(withRetention
                        .get("retentionControls")
                        .get(0)
                        .get("ageSeconds")
                        .asLong())
                .isEqualTo(7200);
        assertThat(withRetention.get("retentions").toString()).contains("premature-events");
        assertThat(errand.cluster().changes(1).get(0).actor()).isEqualTo("console:admin");
        assertError(
                client.post("/api/retentions/change", "{\"retention\":\"forever\",\"ageSeconds\":60}"),
                400,
                "\"retention\" must be one of [failed-tasks");
        assertError(client.post("/api/retentions/change", "{\"retention\":\"batches\"}"), 400, "ageSeconds");
        assertError(
                client.post("/api/retentions/change", "{\"retention\":\"batches\",\"ageSeconds\":0}"),
                400,
                "must be between 1s and 3650d");
        assertError(client.post("/api/retentions/reset", "{}"), 400, "retention");
        ok(client.post("/api/retentions/reset", "{\"retention\":\"failed-tasks\"}"));
        assertThat(errand.cluster().retentionControls()).isEmpty();

        // Both are in the audit under the signed-in user; the refused ones left nothing.
        assertThat(errand.cluster().changes(4).subList(2, 4))
                .extracting(
                        dev.errand.node.ControlChange::actor,
                        dev.errand.node.ControlChange::action,
                        dev.errand.node.ControlChange::target,
                        dev.errand.node.ControlChange::detail)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                "console:admin", "reset-flow-limits", "kind:" + ConsoleTestApp.WORK, null),
                        org.assertj.core.groups.Tuple.tuple(
                                "console:admin", "change-flow-limit", "kind:" + ConsoleTestApp.WORK, "concurrency=3"));
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aPausedQueueIsNotClaimedUntilResumed(TestDatabase database) {
        RunningApp app = app(database);
        Errand errand = app.errand();
        ConsoleClient client = admin(app);
        ok(client.post("/api/queues/pause", "{\"queue\":\"side\"}"));
        assertThat(ok(client.get("/api/cluster")).get("queueControls").toString())
                .contains("\"queue\":\"side\",\"paused\":true");
        // Queue controls reach the node at its next heartbeat at the latest.
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        ok(client.get("/api/overview")).get("queues").toString().contains("\"queue\":\"side\""));
        long id = errand.enqueue(TaskRequest.builder(ConsoleTestApp.WORK, Map.of())
                        .queue("side")
                        .build())
                .id();
        await().during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(3))
                .until(() -> errand.admin().find(id).orElseThrow().state() == TaskState.PENDING);

        ok(client.post("/api/queues/resume", "{\"queue\":\"side\"}"));
        awaitState(errand, id, TaskState.SUCCEEDED);
    }

    @ParameterizedTest
    @MethodSource("databases")
    void triggeringAnEventRunsTheTaskThatWaitsForIt(TestDatabase database) {
        RunningApp app = app(database);
        Errand errand = app.errand();
        String event = "delivered:" + database + ":" + System.nanoTime();
        long id = errand.enqueue(TaskRequest.builder(ConsoleTestApp.WORK, Map.of())
                        .condition(event)
                        .build())
                .id();
        ConsoleClient client = admin(app);
        JsonNode triggered = ok(client.post("/api/events/trigger", "{\"event\":\"" + event + "\"}"));
        assertThat(triggered.get("releasedTasks").asInt()).isEqualTo(1);
        awaitState(errand, id, TaskState.SUCCEEDED);
    }

    @ParameterizedTest
    @MethodSource("databases")
    void schedulesArePausedAndResumed(TestDatabase database) {
        RunningApp app = app(database);
        app.errand()
                .schedules()
                .upsert(Schedule.every("nightly", ConsoleTestApp.WORK, Duration.ofHours(24))
                        .build());
        ConsoleClient client = admin(app);
        ok(client.post("/api/schedules/pause", "{\"name\":\"nightly\"}"));
        assertThat(app.errand().schedules().find("nightly").orElseThrow().paused())
                .isTrue();
        ok(client.post("/api/schedules/resume", "{\"name\":\"nightly\"}"));
        assertThat(app.errand().schedules().find("nightly").orElseThrow().paused())
                .isFalse();
        assertThat(client.post("/api/schedules/pause", "{\"name\":\"no-such\"}").status())
                .isEqualTo(404);
    }

    @ParameterizedTest
    @MethodSource("databases")
    void failedTasksOfAKindAreCountedThenRetriedInBulk(TestDatabase database) {
        RunningApp app = app(database);
        Errand errand = app.errand();
        ConsoleTestApp.FAILING.set(true);
        java.util.List<Long> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(errand.enqueue(TaskRequest.of(ConsoleTestApp.FLAKY, Map.of("n", i)))
                    .id());
        }
        ids.forEach(id -> awaitState(errand, id, TaskState.FAILED));
        ConsoleTestApp.FAILING.set(false);
        ConsoleClient client = admin(app);

        JsonNode counted = ok(client.get("/api/tasks/bulk-count?state=failed&kind=flaky"));
        long count = counted.get("count").asLong();
        assertThat(count).isGreaterThanOrEqualTo(3);
        assertThat(counted.get("highestId").asLong()).isGreaterThanOrEqualTo(ids.get(2));
        Answer started = client.post(
                "/api/tasks/bulk/retry",
                "{\"filter\":{\"state\":\"failed\",\"kind\":\"flaky\"},\"upToId\":"
                        + counted.get("highestId").asLong() + ",\"chunkSize\":2}");
        // It answers at once with the job, which runs in the background; its progress is polled.
        assertThat(started.status()).as(started.body()).isEqualTo(202);
        String jobId = started.json().get("id").asString();
        assertThat(started.json().get("action").asString()).isEqualTo("retry");
        assertThat(started.header("Location")).endsWith("/api/bulk-jobs/" + jobId);
        await().atMost(Duration.ofSeconds(20))
                .until(
                        () -> ok(client.get("/api/bulk-jobs/" + jobId))
                                .get("state")
                                .asString(),
                        "finished"::equals);
        JsonNode result = ok(client.get("/api/bulk-jobs/" + jobId));
        assertThat(result.get("total").asLong()).isEqualTo(count);
        assertThat(result.get("error").isNull()).isTrue();
        assertThat(ok(client.get("/api/bulk-jobs"))
                        .get("items")
                        .get(0)
                        .get("id")
                        .asString())
                .isEqualTo(jobId);
        assertError(client.get("/api/bulk-jobs/no-such-job"), 404, "no bulk job");
        assertThat(result.get("matched").asLong()).isEqualTo(count);
        assertThat(result.get("changed").asLong()).isEqualTo(count);
        assertThat(result.get("skipped").asLong()).isZero();
        assertThat(result.get("chunks").asInt()).isEqualTo((int) ((count + 1) / 2));
        ids.forEach(id -> awaitState(errand, id, TaskState.SUCCEEDED));
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aScheduleRunsNowOnceForADoubleClick(TestDatabase database) {
        RunningApp app = app(database);
        app.errand()
                .schedules()
                .upsert(Schedule.cron("yearly", ConsoleTestApp.WORK, "0 0 1 1 *")
                        .build());
        app.errand().schedules().pause("yearly");
        ConsoleClient client = admin(app);
        JsonNode run = ok(client.post("/api/schedules/run-now", "{\"name\":\"yearly\"}"));
        long taskId = run.get("taskId").asLong();
        assertThat(run.get("action").asString()).isEqualTo("run-now");
        awaitState(app.errand(), taskId, TaskState.SUCCEEDED);
        assertThat(app.errand().schedules().find("yearly").orElseThrow().paused())
                .as("still paused")
                .isTrue();
        assertError(client.post("/api/schedules/run-now", "{\"name\":\"no-such\"}"), 404, "no schedule named");
        assertError(client.post("/api/schedules/run-now", "{}"), 400, "\"name\"");
        assertError(
                client.post("/api/schedules/run-now", "{\"name\":\"" + "x".repeat(101) + "\"}"), 400, "at most 100");
    }

    @ParameterizedTest
    @MethodSource("databases")
    void theTaskListPagesByKeysetBothWaysAndAPriorityChanges(TestDatabase database) {
        RunningApp app = app(database);
        Errand errand = app.errand();
        java.util.List<Long> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(errand.enqueue(TaskRequest.builder(ConsoleTestApp.WORK, Map.of("page", i))
                            .delay(Duration.ofHours(2))
                            .build())
                    .id());
        }
        ConsoleClient client = admin(app);
        String filter = "/api/tasks?kind=work&state=pending&order=desc&limit=2&createdFrom="
                + errand.admin().find(ids.get(0)).orElseThrow().createdAt();
        java.util.List<Long> seen = new java.util.ArrayList<>();
        JsonNode page = ok(client.get(filter));
        assertThat(page.get("previous").isNull()).isTrue();
        page.get("items").forEach(item -> seen.add(item.get("id").asLong()));
        while (!page.get("next").isNull()) {
            page = ok(client.get(filter + "&before=" + page.get("next").asLong()));
            page.get("items").forEach(item -> seen.add(item.get("id").asLong()));
        }
        java.util.List<Long> newestFirst = new java.util.ArrayList<>(ids);
        java.util.Collections.reverse(newestFirst);
        assertThat(seen).containsSubsequence(newestFirst).doesNotHaveDuplicates();
        JsonNode back = ok(client.get(filter + "&after=" + page.get("previous").asLong()));
        assertThat(back.get("items").size()).isEqualTo(2);

        ok(client.post("/api/tasks/" + ids.get(0) + "/priority", "{\"priority\":2}"));
        assertThat(errand.admin().find(ids.get(0)).orElseThrow().priority()).isEqualTo(2);
        assertThat(ok(client.get("/api/tasks/" + ids.get(0))).get("actions").toString())
                .contains("priority");
    }

    @ParameterizedTest
    @MethodSource("databases")
    void batchesWorkflowsAndATasksLinks(TestDatabase database) {
        RunningApp app = app(database);
        Errand errand = app.errand();
        dev.errand.workflow.EnqueuedWorkflow flow = errand.enqueueWorkflow(dev.errand.workflow.Workflow.builder()
                .step(
                        "first",
                        TaskRequest.builder(ConsoleTestApp.WORK, Map.of())
                                .delay(Duration.ofHours(1))
                                .build())
                .step("second", TaskRequest.of(ConsoleTestApp.WORK, Map.of()), "first")
                .build());
        long batch = errand.enqueueBatch(BatchRequest.builder()
                        .add(TaskRequest.builder(ConsoleTestApp.WORK, Map.of())
                                .delay(Duration.ofHours(1))
                                .build())
                        .on(BatchEvent.SUCCESS, id -> TaskRequest.of(ConsoleTestApp.WORK, Map.of()))
                        .build())
                .id();
        ConsoleClient client = admin(app);

        JsonNode unfinished = ok(client.get("/api/batches?finished=false&limit=5"));
        assertThat(unfinished.get("items").get(0).get("batchId").asLong()).isEqualTo(batch);
        assertThat(unfinished.get("items").get(0).get("callbacks").toString())
                .contains("\"event\":\"success\"", "\"fired\":false");
        JsonNode one = ok(client.get("/api/batches/" + batch));
        assertThat(one.get("callbacks").get(0).get("event").asString()).isEqualTo("success");

        JsonNode graph = ok(client.get("/api/workflows/" + flow.taskId("second")));
        assertThat(graph.get("workflowId").asLong()).isEqualTo(flow.taskId("first"));
        assertThat(graph.get("steps").toString()).contains("\"step\":\"first\"", "\"state\":\"waiting\"");
        assertThat(graph.get("edges").get(0).get("to").asLong()).isEqualTo(flow.taskId("second"));

        JsonNode links = ok(client.get("/api/tasks/" + flow.taskId("second") + "/links"));
        assertThat(links.get("step").asString()).isEqualTo("second");
        assertThat(links.get("dependsOn").get(0).asLong()).isEqualTo(flow.taskId("first"));

        assertError(client.get("/api/batches?finished=maybe"), 400, "true or false");
        assertError(client.get("/api/batches?before=-3"), 400, "positive");
        assertError(client.get("/api/batches?limit=0"), 400, "limit");
        assertError(client.get("/api/workflows/abc"), 400, "positive");
        assertError(client.get("/api/workflows/" + batch * 1000), 404, "no step");
        assertError(client.get("/api/tasks/99999999/links"), 404, "no task");
    }

    @ParameterizedTest
    @MethodSource("databases")
    void badInputGetsA4xxWithAMessageAndChangesNothing(TestDatabase database) {
        RunningApp app = app(database);
        Errand errand = app.errand();
        long id = errand.enqueue(TaskRequest.builder(ConsoleTestApp.WORK, Map.of())
                        .delay(Duration.ofHours(1))
                        .build())
                .id();
        long tasks = errand.admin().count(TaskQuery.all());
        ConsoleClient client = admin(app);

        assertError(client.get("/api/tasks/999999999"), 404, "There is no task 999999999");
        assertError(client.post("/api/tasks/999999999/retry", null), 404, "There is no task");
        assertError(client.get("/api/tasks/abc"), 400, "task id must be a positive whole number, got 'abc'");
        assertError(client.get("/api/tasks/-5"), 400, "positive whole number");
        assertError(client.get("/api/tasks/99999999999999999999999"), 400, "positive whole number");
        assertError(client.post("/api/tasks/0/cancel", null), 400, "positive whole number");
        assertError(client.get("/api/tasks?limit=-1"), 400, "limit must be a whole number from 1 to 1000");
        assertError(client.get("/api/tasks?limit=100000"), 400, "limit must be");
        assertError(client.get("/api/tasks?offset=3"), 400, "not by offset");
        assertError(client.get("/api/tasks?after=abc"), 400, "after must be a positive whole number");
        assertError(client.get("/api/tasks?before=-1"), 400, "before must be a positive whole number");
        assertError(client.get("/api/tasks?order=sideways"), 400, "order must be asc");
        assertError(client.get("/api/tasks?countUpTo=-1"), 400, "countUpTo must be");
        assertError(client.get("/api/tasks?state=failed,exploded"), 400, "state must be one of");
        assertError(client.get("/api/tasks?error=" + "x".repeat(201)), 400, "1 to 200 characters");
        assertError(client.get("/api/tasks?createdFrom=yesterday"), 400, "ISO-8601");
        assertError(
                client.get("/api/tasks?finishedFrom=2026-02-01T00:00:00Z&finishedBefore=2026-01-01T00:00:00Z"),
                400,
                "[from, before)");
        assertError(client.get("/api/tasks/bulk-count?kind=" + "k".repeat(300)), 400, "kind filter");
        StringBuilder tenThousandIds = new StringBuilder("{\"ids\":[");
        for (int i = 1; i <= 10_000; i++) {
            tenThousandIds.append(i == 1 ? "" : ",").append(i);
        }
        tenThousandIds.append("],\"filter\":{}}");
        assertError(client.post("/api/tasks/bulk/delete", tenThousandIds.toString()), 400, "never on a list of ids");
        assertError(client.post("/api/tasks/bulk/delete", "{\"filter\":{}}"), 400, "needs \"upToId\"");
        assertError(client.post("/api/tasks/bulk/delete", "{\"upToId\":5}"), 400, "needs \"filter\"");
        assertError(
                client.post("/api/tasks/bulk/delete", "{\"filter\":{\"id\":\"1\"},\"upToId\":5}"),
                400,
                "The filter takes state");
        assertError(
                client.post("/api/tasks/bulk/delete", "{\"filter\":{},\"upToId\":5,\"chunkSize\":0}"),
                400,
                "chunk size must be between 1 and 10000");
        assertError(
                client.post("/api/tasks/bulk/priority", "{\"filter\":{},\"upToId\":" + id + ",\"priority\":11}"),
                400,
                "from 1 (runs first) to 10");
        assertError(
                client.post("/api/tasks/bulk/reschedule", "{\"filter\":{},\"upToId\":" + id + "}"),
                400,
                "needs the text field \"runAt\"");
        assertError(client.post("/api/tasks/bulk/explode", "{\"filter\":{},\"upToId\":5}"), 404, "no bulk action");
        assertError(client.post("/api/tasks/" + id + "/priority", "{\"priority\":0}"), 400, "from 1 (runs first)");
        assertError(client.post("/api/tasks/abc/priority", "{\"priority\":3}"), 400, "positive whole number");
        assertError(client.get("/api/tasks?state=exploded"), 400, "state must be one of pending, waiting");
        assertError(client.get("/api/history?outcome=x"), 400, "outcome must be one of");
        assertError(client.get("/api/history?from=yesterday"), 400, "ISO-8601");
        assertError(client.get("/api/history?countUpTo=-1"), 400, "countUpTo");
        assertError(client.get("/api/history?countUpTo=1000001"), 400, "countUpTo");
        assertError(client.get("/api/tasks?error=x&within=yesterday"), 400, "within must be an ISO-8601 duration");
        assertError(client.get("/api/tasks/bulk-count?within=P0D"), 400, "within must be a positive ISO-8601 duration");
        assertError(client.get("/api/history?within=yesterday"), 400, "within must be an ISO-8601 duration");
        assertError(client.get("/api/history?within=-PT1H"), 400, "within must be a positive ISO-8601 duration");
        assertError(client.get("/api/events?limit=0"), 400, "limit must be");
        assertError(client.get("/api/processes?limit=5000"), 400, "limit must be");
        assertError(client.get("/api/batches/nope"), 400, "batch id must be a positive whole number");
        assertError(client.get("/api/batches/424242"), 404, "There is no batch 424242");
        assertError(
                client.post("/api/workflows/nope/cancel", null), 400, "workflow id must be a positive whole number");
        assertError(client.post("/api/workflows/" + id + "/cancel", null), 404, "no step of a stored workflow");
        assertError(client.get("/api/process?id=none"), 404, "There is no process");
        assertError(client.get("/api/nowhere"), 404, "There is no GET");
        assertError(client.post("/api/tasks/" + id + "/reschedule", "{\"runAt\":\"soon\"}"), 400, "ISO-8601");
        assertError(client.post("/api/tasks/" + id + "/reschedule", "not json"), 400, "not valid JSON");
        assertError(
                client.post("/api/tasks/" + id + "/reschedule", "{\"runAt\":\"0999-01-01T00:00:00Z\"}"),
                400,
                "runAt must be between");
        assertError(client.post("/api/tasks/" + id + "/reschedule", "[1]"), 400, "must be a JSON object");
        assertError(client.post("/api/tasks/" + id + "/reschedule", "{}"), 400, "needs the text field \"runAt\"");
        assertError(client.post("/api/queues/change", "{\"queue\":\"side\",\"concurrency\":-4}"), 400, "");
        assertError(client.post("/api/queues/pause", "{\"queue\":\" padded \"}"), 400, "whitespace");
        assertError(client.post("/api/events/trigger", "{\"event\":\"errand:after:1\"}"), 400, "reserves");
        assertError(client.post("/api/events/trigger", "{\"event\":42}"), 400, "must be text");
        assertError(
                client.post("/api/tasks/" + id + "/reschedule", "{\"runAt\":\"" + "x".repeat(70_000) + "\"}"),
                400,
                "larger than");

        for (String hostile : new String[] {"x' OR '1'='1", "%", "_", "'; DROP TABLE errand_task; --", "\\"}) {
            String encoded = URLEncoder.encode(hostile, StandardCharsets.UTF_8);
            assertThat(ok(client.get("/api/tasks?kind=" + encoded)).get("count").asLong())
                    .as(hostile)
                    .isZero();
            assertThat(ok(client.get("/api/tasks?queue=" + encoded))
                            .get("count")
                            .asLong())
                    .isZero();
            assertThat(ok(client.get("/api/tasks?error=" + encoded + "&kind=work&state=pending"))
                            .get("count")
                            .asLong())
                    .as("error text is matched literally: %, _ and \\ are plain characters")
                    .isZero();
            assertThat(ok(client.get("/api/tasks/bulk-count?node=" + encoded))
                            .get("count")
                            .asLong())
                    .isZero();
            ok(client.get("/api/history?error=" + encoded + "&kind=" + encoded));
            ok(client.get("/api/events?event=" + encoded));
        }

        assertThat(errand.admin().count(TaskQuery.all())).isEqualTo(tasks);
        assertThat(errand.admin().find(id).orElseThrow().state()).isEqualTo(TaskState.PENDING);
        assertThat(errand.cluster().queueControls().stream()
                        .noneMatch(c -> c.queue().equals(" padded ")))
                .isTrue();
    }

    private static void assertError(Answer answer, int status, String message) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(status);
        assertThat(answer.header("Content-Type")).startsWith("application/json");
        assertThat(answer.json().get("message").asString()).contains(message);
    }

    static JsonNode ok(Answer answer) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        return answer.json();
    }

    static void awaitState(Errand errand, long id, TaskState state) {
        await().atMost(Duration.ofSeconds(20))
                .until(() -> errand.admin().find(id).map(task -> task.state()).orElse(null) == state);
    }
}
