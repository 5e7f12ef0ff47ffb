package dev.errand.scripting.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.scripting.ScriptAdmin;
import dev.errand.scripting.spring.Client.Answer;
import dev.errand.testkit.TestDatabase;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The console's script routes from the attacker's side, on real servers: only a user with the console's admin
 * authority may read or store scripts, storing needs the console's CSRF token, a refused request writes nothing,
 * bad input answers 400 with ScriptAdmin's message, a read-only console refuses everyone, and with scripting off (the
 * default) or its console routes off the routes do not exist.
 */
class ScriptConsoleSecurityTest {

    private static final Map<String, String> GREET =
            Map.of("name", "greet", "language", "groovy", "source", "task.log('hello ' + input.name)");

    static Stream<TestDatabase> databases() {
        return TestDatabase.selected().stream().filter(db -> db != TestDatabase.H2_UNPOOLED);
    }

    private static long stored(ScriptingTestApp.Running app) {
        return app.context().getBean(ScriptAdmin.class).list().size();
    }

    @ParameterizedTest
    @MethodSource("databases")
    void onlyTheAdminAuthorityReadsAndStoresScripts(TestDatabase db) {
        try (ScriptingTestApp.Running app = ScriptingTestApp.start(
                db, true, "errand.scripting.enabled=true", "errand.scripting.max-source-length=1000")) {
            String console = app.console();

            Client anonymous = new Client(console, null);
            assertThat(anonymous.get("/api/scripts").status()).isEqualTo(401);
            assertThat(anonymous.get("/api/script?name=greet").status()).isEqualTo(401);
            // Without a session there is no CSRF token either: Spring Security's CSRF filter may answer first.
            assertThat(anonymous.post("/api/scripts", GREET).status()).isIn(401, 403);

            Client viewer = new Client(console, "viewer").withCsrf();
            for (String read : List.of("/api/scripts", "/api/script?name=greet", "/api/scripts/versions?name=greet")) {
                Answer answer = viewer.get(read);
                assertThat(answer.status()).as(read).isEqualTo(403);
                assertThat(answer.message()).contains("only for users who may act");
            }
            Answer viewerSave = viewer.post("/api/scripts", GREET);
            assertThat(viewerSave.status()).isEqualTo(403);
            assertThat(viewerSave.message()).contains("admin authority");
            assertThat(viewer.post("/api/scripts/disable", Map.of("name", "greet"))
                            .status())
                    .isEqualTo(403);
            assertThat(stored(app)).isZero();

            Client adminWithoutToken = new Client(console, "admin");
            Answer forged = adminWithoutToken.post("/api/scripts", GREET);
            assertThat(forged.status()).isEqualTo(403);
            assertThat(forged.message()).contains("CSRF");
            assertThat(stored(app)).isZero();

            Client admin = new Client(console, "admin").withCsrf();
            Answer saved = admin.post("/api/scripts", GREET);
            assertThat(saved.status()).as(saved.body()).isEqualTo(200);
            assertThat(saved.json().get("version").asInt()).isEqualTo(1);
            assertThat(saved.json().get("createdBy").asString()).isEqualTo("admin");

            // Bad input: 400 with what ScriptAdmin accepts, nothing written.
            Map<String, String> blankName = Map.of("name", " ", "language", "groovy", "source", "return 1");
            assertThat(admin.post("/api/scripts", blankName).message())
                    .contains("Script name must be 1 to 200 non-blank characters");
            Map<String, String> python = Map.of("name", "greet", "language", "python", "source", "return 1");
            Answer unknownLanguage = admin.post("/api/scripts", python);
            assertThat(unknownLanguage.status()).isEqualTo(400);
            assertThat(unknownLanguage.message()).contains("Script language must be one of [groovy]");
            Map<String, String> huge = Map.of("name", "greet", "language", "groovy", "source", "x".repeat(1_001));
            Answer tooLong = admin.post("/api/scripts", huge);
            assertThat(tooLong.status()).isEqualTo(400);
            assertThat(tooLong.message()).contains("Script source must be at most 1000 characters, got 1001");
            Answer notJson = admin.post("/api/scripts", "name=greet");
            assertThat(notJson.status()).isEqualTo(400);
            assertThat(notJson.message()).contains("not valid JSON");
            Answer tooLarge = admin.post("/api/scripts", "\"" + "y".repeat(200_000) + "\"");
            assertThat(tooLarge.status()).isEqualTo(400);
            assertThat(tooLarge.message()).contains("larger than");
            assertThat(app.context().getBean(ScriptAdmin.class).versions("greet"))
                    .hasSize(1);

            Answer list = admin.get("/api/scripts");
            assertThat(list.status()).isEqualTo(200);
            assertThat(list.json().get("scripts")).hasSize(1);
            assertThat(list.json().get("scripts").get(0).has("source")).isFalse();
            Answer one = admin.get("/api/script?name=greet");
            assertThat(one.json().get("source").asString()).isEqualTo(GREET.get("source"));
            assertThat(admin.get("/api/script?name=greet&version=2").status()).isEqualTo(404);
            assertThat(admin.get("/api/script?name=greet&version=zero").status())
                    .isEqualTo(400);
            assertThat(admin.get("/api/scripts/versions?name=nothing").status()).isEqualTo(404);

            Answer disabled = admin.post("/api/scripts/disable", Map.of("name", "greet"));
            assertThat(disabled.status()).isEqualTo(200);
            assertThat(disabled.json().get("disabledVersions").asInt()).isEqualTo(1);
            assertThat(app.context()
                            .getBean(ScriptAdmin.class)
                            .latest("greet")
                            .orElseThrow()
                            .disabledBy())
                    .isEqualTo("admin");
        }
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aReadOnlyConsoleRefusesEvenTheAdmin(TestDatabase db) {
        try (ScriptingTestApp.Running app =
                ScriptingTestApp.start(db, true, "errand.scripting.enabled=true", "errand.console.read-only=true")) {
            Client admin = new Client(app.console(), "admin").withCsrf();
            assertThat(admin.get("/api/scripts").status()).isEqualTo(403);
            assertThat(admin.post("/api/scripts", GREET).status()).isEqualTo(403);
            assertThat(stored(app)).isZero();
        }
    }

    @ParameterizedTest
    @MethodSource("databases")
    void withScriptingOffTheRoutesDoNotExist(TestDatabase db) {
        try (ScriptingTestApp.Running app = ScriptingTestApp.start(db, true)) {
            Client admin = new Client(app.console(), "admin").withCsrf();
            assertThat(admin.get("/api/overview").status()).isEqualTo(200);
            assertThat(admin.get("/api/scripts").status()).isEqualTo(404);
            assertThat(admin.post("/api/scripts", GREET).status()).isEqualTo(404);
            assertThat(db.countTables(app.prefix() + "script")).isZero();
        }
        try (ScriptingTestApp.Running app =
                ScriptingTestApp.start(db, true, "errand.scripting.enabled=true", "errand.scripting.console=false")) {
            Client admin = new Client(app.console(), "admin").withCsrf();
            assertThat(admin.get("/api/scripts").status()).isEqualTo(404);
            assertThat(admin.post("/api/scripts", GREET).status()).isEqualTo(404);
            assertThat(stored(app)).isZero();
        }
    }
}
