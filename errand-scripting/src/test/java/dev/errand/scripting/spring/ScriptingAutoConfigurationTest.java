package dev.errand.scripting.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.scripting.ErrandScripting;
import dev.errand.scripting.ScriptAdmin;
import dev.errand.task.ExecutionMode;
import dev.errand.task.Task;
import dev.errand.task.TaskState;
import dev.errand.testkit.TestDatabase;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Scripting in Spring Boot: off unless {@code errand.scripting.enabled=true} (no bean, no table, and the script
 * kind has no handler), on with the node's prefix and the {@code errand.scripting.*} settings, and a refused setting
 * stops start-up naming it.
 */
class ScriptingAutoConfigurationTest {

    static Stream<TestDatabase> databases() {
        return TestDatabase.selected().stream().filter(db -> db != TestDatabase.H2_UNPOOLED);
    }

    @ParameterizedTest
    @MethodSource("databases")
    void scriptingIsOffByDefault(TestDatabase db) {
        try (ScriptingTestApp.Running app = ScriptingTestApp.start(db, false)) {
            assertThat(app.context().getBeanNamesForType(ErrandScripting.class)).isEmpty();
            assertThat(app.context().getBeanNamesForType(ScriptAdmin.class)).isEmpty();
            assertThat(db.countTables(app.prefix() + "script")).isZero();

            // A task of the script kind, written by name as SQL or another service would: no handler runs it.
            Errand errand = app.context().getBean(Errand.class);
            long id = errand.enqueue(TaskRequest.of("errand-script", Map.of("script", "anything")))
                    .id();
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> errand.admin().find(id).map(Task::lastError).orElse(null) != null);
            Task task = errand.admin().find(id).orElseThrow();
            assertThat(task.state()).isEqualTo(TaskState.PENDING);
            assertThat(task.lastError()).contains("No handler is registered for kind 'errand-script'");
        }
    }

    @ParameterizedTest
    @MethodSource("databases")
    void scriptingIsOnWhenTheApplicationTurnsItOn(TestDatabase db) throws Exception {
        try (ScriptingTestApp.Running app = ScriptingTestApp.start(
                db,
                false,
                "errand.scripting.enabled=true",
                "errand.scripting.execution-timeout=30s",
                "errand.scripting.mode=non-transactional",
                "errand.history-enabled=true")) {
            ErrandScripting scripting = app.context().getBean(ErrandScripting.class);
            assertThat(scripting.options().executionTimeout()).isEqualTo(Duration.ofSeconds(30));
            assertThat(scripting.options().mode()).isEqualTo(ExecutionMode.NON_TRANSACTIONAL);
            assertThat(scripting.options().tablePrefix().value()).isEqualTo(app.prefix());
            assertThat(app.context().getBean(ScriptAdmin.class)).isSameAs(scripting.admin());

            // Non-transactional: no connection is bound, and the context refuses one.
            scripting
                    .admin()
                    .save(
                            "note",
                            "groovy",
                            """
                            if (binding.hasVariable('connection')) throw new AssertionError('connection bound')
                            try { task.connection(); throw new AssertionError('connection given') }
                            catch (IllegalStateException expected) { }
                            println "ran ${input.note} as version ${task.version()}"
                            """,
                            "ops");
            Errand errand = app.context().getBean(Errand.class);
            long id = errand.enqueue(scripting
                            .request("note", Map.of("note", "from spring"))
                            .build())
                    .id();
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> errand.admin().find(id).map(Task::state).orElse(null) == TaskState.SUCCEEDED);
            assertThat(errand.history().attempts(id)).singleElement().satisfies(attempt -> assertThat(attempt.logs())
                    .contains("ran from spring as version 1"));
        }
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aRefusedSettingStopsStartUpNamingIt(TestDatabase db) {
        assertThatThrownBy(() -> ScriptingTestApp.start(
                                db, false, "errand.scripting.enabled=true", "errand.scripting.max-source-length=0")
                        .close())
                .hasStackTraceContaining("maxSourceLength must be from 1 to 10000000");
    }
}
