package dev.errand.scripting.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.history.Attempt;
import dev.errand.retry.RetryPolicy;
import dev.errand.scripting.ErrandScripting;
import dev.errand.scripting.ScriptCall;
import dev.errand.scripting.ScriptVersion;
import dev.errand.scripting.testing.ScriptingTestSupport;
import dev.errand.task.Task;
import dev.errand.task.TaskState;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The script kind on every database: a script task runs with its input, context and transaction; a new version
 * applies to the tasks enqueued after it and never to those before; a script that throws fails like any handler;
 * a script that loops is stopped by the execution timeout and frees its worker; a disabled script does not run.
 */
class ScriptTaskContractTest extends ScriptingTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Writes one effect row on the task's connection: "v<version>:<note>", and a line to the processing log. */
    private String recordingScript(String tag) {
        return """
                def insert = connection.prepareStatement('INSERT INTO %s (task_id, note) VALUES (?, ?)')
                try {
                    insert.setLong(1, task.taskId())
                    insert.setString(2, '%s' + task.version() + ':' + input.note)
                    insert.executeUpdate()
                } finally {
                    insert.close()
                }
                println "recorded ${input.note} in attempt ${task.attempt()} of ${task.maxAttempts()}"
                """
                .formatted(effectTable(), tag);
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aScriptTaskRunsWithItsInputContextAndTransaction(TestDatabase db) throws Exception {
        on(db);
        Installed node = install(builder(), options().build());
        ErrandScripting scripting = node.scripting();
        scripting.admin().save("record", "groovy", recordingScript("v"), "alice");
        long id;
        try (Connection c = dataSource().getConnection()) {
            id = node.errand()
                    .enqueue(
                            c,
                            scripting
                                    .request(c, "record", Map.of("note", "hello"))
                                    .build())
                    .id();
        }
        Task queued = node.errand().admin().find(id).orElseThrow();
        assertThat(queued.kind()).isEqualTo("errand-script");
        JsonNode payload = JSON.readTree(queued.payloadJson());
        assertThat(payload.get("script").asString()).isEqualTo("record");
        assertThat(payload.get("version").asInt()).isEqualTo(1);
        assertThat(payload.get("input").get("note").asString()).isEqualTo("hello");

        node.errand().start();
        awaitState(node.errand(), id, TaskState.SUCCEEDED);
        assertThat(notes()).containsExactly("v1:hello");
        List<Attempt> attempts = node.errand().history().attempts(id);
        assertThat(attempts).hasSize(1);
        assertThat(attempts.get(0).logs()).contains("recorded hello in attempt 1 of 5");
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aNewVersionAppliesToTasksEnqueuedAfterItAndNeverToThoseBefore(TestDatabase db) throws Exception {
        on(db);
        Installed node = install(builder(), options().build());
        Errand errand = node.errand();
        ErrandScripting scripting = node.scripting();
        scripting.admin().save("record", "groovy", recordingScript("old-v"), "alice");

        // Before version 2: one task pinned at enqueue, one without a version (as a schedule or SQL writes it).
        long pinnedBefore = errand.enqueue(
                        scripting.request("record", Map.of("note", "a")).build())
                .id();
        long unpinnedBefore = errand.enqueue(
                        TaskRequest.of(scripting.kind(), ScriptCall.latest("record", Map.of("note", "b"))))
                .id();
        ScriptVersion two = scripting.admin().save("record", "groovy", recordingScript("new-v"), "bob");
        assertThat(two.version()).isEqualTo(2);
        long pinnedAfter = errand.enqueue(
                        scripting.request("record", Map.of("note", "c")).build())
                .id();
        long unpinnedAfter = errand.enqueue(
                        TaskRequest.of(scripting.kind(), ScriptCall.latest("record", Map.of("note", "d"))))
                .id();
        // Version 1 on request still runs version 1.
        long explicitOne = errand.enqueue(
                        TaskRequest.of(scripting.kind(), ScriptCall.of("record", 1, Map.of("note", "e"))))
                .id();

        errand.start();
        for (long id : List.of(pinnedBefore, unpinnedBefore, pinnedAfter, unpinnedAfter, explicitOne)) {
            awaitState(errand, id, TaskState.SUCCEEDED);
        }
        assertThat(notes()).containsExactly("old-v1:a", "old-v1:b", "new-v2:c", "new-v2:d", "old-v1:e");
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aScriptThatThrowsFailsLikeAnyHandler(TestDatabase db) throws Exception {
        on(db);
        Installed node = install(
                builder(),
                options()
                        .definition(kind -> kind.retryPolicy(RetryPolicy.fixed(Duration.ofMillis(100))))
                        .build());
        ErrandScripting scripting = node.scripting();
        scripting
                .admin()
                .save(
                        "reserve",
                        "groovy",
                        """
                        def insert = connection.prepareStatement('INSERT INTO %s (task_id, note) VALUES (?, ?)')
                        insert.setLong(1, task.taskId()); insert.setString(2, 'reserved'); insert.executeUpdate()
                        insert.close()
                        throw new IllegalStateException('no stock for ' + input.sku)
                        """
                                .formatted(effectTable()),
                        "alice");
        long id = node.errand()
                .enqueue(scripting
                        .request("reserve", Map.of("sku", "A-1"))
                        .maxAttempts(2)
                        .build())
                .id();
        node.errand().start();

        Task failed = awaitState(node.errand(), id, TaskState.FAILED);
        assertThat(failed.attempt()).isEqualTo(2);
        assertThat(failed.lastError()).contains("IllegalStateException").contains("no stock for A-1");
        assertThat(JSON.readTree(failed.errorsJson()).findValues("attempt"))
                .extracting(JsonNode::asInt)
                .containsExactly(1, 2);
        // Transactional: the script's write rolled back with each failed attempt.
        assertThat(notes()).isEmpty();
        assertThat(node.errand().history().attempts(id))
                .extracting(attempt -> attempt.error().type())
                .containsOnly(IllegalStateException.class.getName());
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aLoopingScriptIsStoppedByTheExecutionTimeoutAndFreesItsWorker(TestDatabase db) throws Exception {
        on(db);
        // One worker: the next task runs only once the looping script has let go of it.
        Installed node = install(
                builder().queue("default", 1),
                options().executionTimeout(Duration.ofMillis(500)).build());
        ErrandScripting scripting = node.scripting();
        scripting.admin().save("spin", "groovy", "while (true) { }", "alice");
        // A loop that swallows what the interrupt throws, inside a loop that checks again.
        scripting
                .admin()
                .save(
                        "stubborn",
                        "groovy",
                        "while (true) { try { while (true) { } } catch (Throwable swallowed) { } }",
                        "alice");
        scripting.admin().save("record", "groovy", recordingScript("v"), "alice");
        Errand errand = node.errand();
        long spin = errand.enqueue(
                        scripting.request("spin", null).maxAttempts(1).build())
                .id();
        long stubborn = errand.enqueue(
                        scripting.request("stubborn", null).maxAttempts(1).build())
                .id();
        long after = errand.enqueue(
                        scripting.request("record", Map.of("note", "after")).build())
                .id();
        long started = System.nanoTime();
        errand.start();

        for (long looping : List.of(spin, stubborn)) {
            Task failed = awaitState(errand, looping, TaskState.FAILED);
            assertThat(failed.lastError()).contains("ExecutionTimeoutException").contains("PT0.5S");
        }
        awaitState(errand, after, TaskState.SUCCEEDED);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
        assertThat(notes()).containsExactly("v1:after");
        // No thread of this node is still inside a script.
        await().atMost(Duration.ofSeconds(5)).until(() -> Thread.getAllStackTraces().values().stream()
                .flatMap(java.util.Arrays::stream)
                .noneMatch(frame -> frame.getClassName().startsWith("Script")
                        && frame.getMethodName().equals("run")));
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aDisabledScriptDoesNotRunAndCannotBeRequested(TestDatabase db) throws Exception {
        on(db);
        Installed node = install(builder(), options().build());
        ErrandScripting scripting = node.scripting();
        Errand errand = node.errand();
        scripting.admin().save("record", "groovy", recordingScript("v"), "alice");
        long queued = errand.enqueue(scripting
                        .request("record", Map.of("note", "queued"))
                        .maxAttempts(1)
                        .build())
                .id();

        assertThat(scripting.admin().disable("record", "carol")).isEqualTo(1);
        assertThat(scripting.admin().disable("record", "carol")).isZero();
        assertThatThrownBy(() -> scripting.request("record", Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is disabled");
        assertThatThrownBy(() -> scripting.request("nothing-here", Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("There is no script \"nothing-here\"");
        ScriptVersion disabled = scripting.admin().find("record", 1).orElseThrow();
        assertThat(disabled.disabledBy()).isEqualTo("carol");
        assertThat(disabled.disabledAt()).isAfterOrEqualTo(disabled.createdAt());

        errand.start();
        Task failed = awaitState(errand, queued, TaskState.FAILED);
        assertThat(failed.lastError()).contains("ScriptUnavailableException").contains("was disabled by carol");

        // A version saved after the disable runs.
        scripting.admin().save("record", "groovy", recordingScript("v"), "alice");
        long next = errand.enqueue(
                        scripting.request("record", Map.of("note", "again")).build())
                .id();
        awaitState(errand, next, TaskState.SUCCEEDED);
        assertThat(notes()).containsExactly("v2:again");
    }
}
