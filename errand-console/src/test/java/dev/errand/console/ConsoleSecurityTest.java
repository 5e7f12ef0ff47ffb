package dev.errand.console;

import static dev.errand.console.ConsoleApiTest.awaitState;
import static dev.errand.console.ConsoleApiTest.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.Errand;
import dev.errand.admin.TaskQuery;
import dev.errand.batch.BatchRequest;
import dev.errand.console.api.ConsoleRoutes;
import dev.errand.console.testing.ConsoleClient;
import dev.errand.console.testing.ConsoleClient.Answer;
import dev.errand.console.testing.ConsoleTestApp;
import dev.errand.console.testing.RunningApp;
import dev.errand.console.web.ConsoleHeadersFilter;
import dev.errand.enqueue.TaskRequest;
import dev.errand.node.ControlChange;
import dev.errand.schedule.Schedule;
import dev.errand.task.TaskState;
import dev.errand.testkit.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.web.servlet.function.RouterFunctions;

/**
 * The console's security from the attacker's side, on real servers on H2 (the checks do not depend on the
 * database): anonymous callers, a user without the admin authority, requests without a CSRF token, read-only
 * mode, an application chain that turns CSRF off or permits everything on the console's path, and the console
 * without Spring Security.
 */
class ConsoleSecurityTest {

    private static final TestDatabase DB = TestDatabase.H2;

    /** Every action of the API, with a body that would be valid; each is refused where the test expects it. */
    private static List<String[]> actions(long failed, long pending, long batch) {
        List<String[]> actions = new ArrayList<>();
        actions.add(new String[] {"POST", "/api/tasks/" + failed + "/retry", null});
        actions.add(new String[] {"POST", "/api/tasks/" + pending + "/cancel", null});
        actions.add(new String[] {"POST", "/api/tasks/" + pending + "/request-cancel", null});
        actions.add(
                new String[] {"POST", "/api/tasks/" + pending + "/reschedule", "{\"runAt\":\"2030-01-01T00:00:00Z\"}"});
        actions.add(new String[] {"DELETE", "/api/tasks/" + failed, null});
        actions.add(new String[] {"POST", "/api/tasks/" + pending + "/priority", "{\"priority\":1}"});
        actions.add(new String[] {
            "POST", "/api/tasks/bulk/retry", "{\"filter\":{\"state\":\"failed\"},\"upToId\":" + failed + "}"
        });
        actions.add(new String[] {"POST", "/api/tasks/bulk/delete", "{\"filter\":{},\"upToId\":" + pending + "}"});
        actions.add(new String[] {
            "POST", "/api/tasks/bulk/cancel", "{\"filter\":{\"state\":\"pending\"},\"upToId\":" + pending + "}"
        });
        actions.add(new String[] {"POST", "/api/schedules/pause", "{\"name\":\"guarded\"}"});
        actions.add(new String[] {"POST", "/api/schedules/resume", "{\"name\":\"guarded\"}"});
        actions.add(new String[] {"POST", "/api/schedules/run-now", "{\"name\":\"guarded\"}"});
        actions.add(new String[] {"POST", "/api/batches/" + batch + "/cancel", null});
        actions.add(new String[] {"POST", "/api/workflows/" + pending + "/cancel", null});
        actions.add(new String[] {"POST", "/api/processes/cancel", "{\"id\":\"p\"}"});
        actions.add(new String[] {"POST", "/api/processes/rerun-failed", "{\"id\":\"p\"}"});
        actions.add(new String[] {"POST", "/api/processes/delete", "{\"id\":\"p\"}"});
        actions.add(new String[] {"POST", "/api/events/trigger", "{\"event\":\"guarded-event\"}"});
        actions.add(new String[] {"POST", "/api/events/delete-premature", "{\"event\":\"guarded-event\"}"});
        actions.add(new String[] {"POST", "/api/cluster/repoll", "{}"});
        actions.add(new String[] {"POST", "/api/cluster/stop-processing", "{}"});
        actions.add(new String[] {"POST", "/api/cluster/start-processing", "{}"});
        actions.add(new String[] {"POST", "/api/queues/pause", "{\"queue\":\"default\"}"});
        actions.add(new String[] {"POST", "/api/queues/resume", "{\"queue\":\"default\"}"});
        actions.add(new String[] {"POST", "/api/queues/change", "{\"queue\":\"default\",\"concurrency\":7}"});
        actions.add(new String[] {"POST", "/api/queues/reset", "{\"queue\":\"default\"}"});
        actions.add(new String[] {"POST", "/api/kinds/change", "{\"kind\":\"work\",\"maxAttempts\":2}"});
        actions.add(new String[] {"POST", "/api/kinds/reset", "{\"kind\":\"work\"}"});
        actions.add(new String[] {"POST", "/api/flow/change", "{\"kind\":\"work\",\"concurrency\":1}"});
        actions.add(new String[] {"POST", "/api/flow/reset", "{\"kind\":\"work\"}"});
        actions.add(new String[] {"POST", "/api/retentions/change", "{\"retention\":\"batches\",\"ageSeconds\":3600}"});
        actions.add(new String[] {"POST", "/api/retentions/reset", "{\"retention\":\"batches\"}"});
        return actions;
    }

    /** The state the actions would change, read from the database. */
    private record Snapshot(
            TaskState failed,
            TaskState pending,
            boolean paused,
            String controls,
            String kindControls,
            String flowLimits,
            String retentionControls,
            long tasks,
            long batchCancelled,
            boolean processing) {
        static Snapshot of(Errand errand, long failed, long pending, long batch) {
            return new Snapshot(
                    errand.admin().find(failed).orElseThrow().state(),
                    errand.admin().find(pending).orElseThrow().state(),
                    errand.schedules().find("guarded").orElseThrow().paused(),
                    errand.cluster().queueControls().toString(),
                    errand.cluster().kindControls().toString(),
                    errand.flow().limits().toString(),
                    errand.cluster().retentionControls().toString(),
                    errand.admin().count(TaskQuery.all()),
                    errand.batches().progress(batch).orElseThrow().cancelled(),
                    errand.cluster().nodes().get(0).processing());
        }
    }

    private record Fixture(long failed, long pending, long batch) {
        static Fixture in(RunningApp app) {
            Errand errand = app.errand();
            ConsoleTestApp.FAILING.set(true);
            long failed = errand.enqueue(TaskRequest.of(ConsoleTestApp.FLAKY, Map.of()))
                    .id();
            long pending = errand.enqueue(TaskRequest.builder(ConsoleTestApp.WORK, Map.of())
                            .delay(Duration.ofHours(1))
                            .build())
                    .id();
            long batch = errand.enqueueBatch(BatchRequest.builder()
                            .add(TaskRequest.builder(ConsoleTestApp.WORK, Map.of())
                                    .delay(Duration.ofHours(1))
                                    .build())
                            .build())
                    .id();
            errand.schedules()
                    .upsert(Schedule.every("guarded", ConsoleTestApp.WORK, Duration.ofHours(1))
                            .build());
            awaitState(errand, failed, TaskState.FAILED);
            return new Fixture(failed, pending, batch);
        }

        Snapshot snapshot(RunningApp app) {
            return Snapshot.of(app.errand(), failed, pending, batch);
        }

        List<String[]> actions() {
            return ConsoleSecurityTest.actions(failed, pending, batch);
        }
    }

    private static Answer send(ConsoleClient client, String[] action, boolean csrf) {
        if (action[0].equals("DELETE")) {
            return client.delete(action[1]);
        }
        return csrf ? client.post(action[1], action[2]) : client.postWithoutCsrf(action[1], action[2]);
    }

    @Test
    void insideTheApplicationsOwnChainTheConsoleKeepsItsRules() throws Exception {
        try (RunningApp app = RunningApp.start(DB, "test.security=app-chain")) {
            Fixture fixture = Fixture.in(app);
            Snapshot before = fixture.snapshot(app);
            String console = app.baseUrl() + "/errand";

            // Anonymous: nothing, not even the page or its scripts, and no action.
            ConsoleClient anonymous = new ConsoleClient(console, null, null);
            for (String path : List.of("/", "/api/session", "/api/overview", "/api/tasks", "/assets/js/app.js")) {
                Answer answer = anonymous.get(path);
                assertThat(answer.status()).as(path).isEqualTo(401);
                assertThat(answer.header("Content-Security-Policy"))
                        .isEqualTo(ConsoleHeadersFilter.CONTENT_SECURITY_POLICY);
            }
            for (String[] action : fixture.actions()) {
                assertThat(send(anonymous, action, true).status()).as(action[1]).isIn(401, 403);
            }

            // A user without the admin authority sees everything and can do nothing.
            ConsoleClient viewer = new ConsoleClient(console, "viewer", ConsoleTestApp.PASSWORD);
            assertThat(ok(viewer.session()).get("canAct").asBoolean()).isFalse();
            for (String path : List.of(
                    "/api/overview",
                    "/api/tasks",
                    "/api/tasks/" + fixture.failed(),
                    "/api/schedules",
                    "/api/events",
                    "/api/cluster",
                    "/api/processes",
                    "/api/history",
                    "/api/batches/" + fixture.batch(),
                    "/api/batches",
                    "/api/bulk-jobs",
                    "/api/tasks/" + fixture.pending() + "/links")) {
                ok(viewer.get(path));
            }
            Answer page = viewer.get("/");
            assertThat(page.status()).isEqualTo(200);
            for (String header : List.of(
                    "Content-Security-Policy",
                    "X-Frame-Options",
                    "X-Content-Type-Options",
                    "Cache-Control",
                    "Referrer-Policy")) {
                assertThat(page.response().headers().allValues(header))
                        .as(header)
                        .hasSize(1);
            }
            for (String[] action : fixture.actions()) {
                Answer answer = send(viewer, action, true);
                assertThat(answer.status()).as(action[1]).isEqualTo(403);
                assertThat(answer.json().get("message").asString()).contains("refused");
            }

            // The admin, without a CSRF token or with a wrong one, though the application's chain has CSRF off.
            ConsoleClient admin = new ConsoleClient(console, "admin", ConsoleTestApp.PASSWORD);
            for (String[] action : fixture.actions()) {
                Answer answer = send(admin, action, false);
                if (!action[0].equals("DELETE")) {
                    assertThat(answer.status()).as(action[1]).isEqualTo(403);
                    // From the console's own chain: the application's has CSRF off.
                    assertThat(answer.json().get("message").asString()).contains("CSRF token is missing or invalid");
                }
            }
            assertThat(admin.delete("/api/tasks/" + fixture.failed()).status()).isEqualTo(403);
            HttpResponse<String> forged = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(console + "/api/tasks/" + fixture.failed() + "/retry"))
                                    .header("Authorization", basic("admin"))
                                    .header("X-CSRF-TOKEN", "forged")
                                    .POST(HttpRequest.BodyPublishers.noBody())
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(forged.statusCode()).isEqualTo(403);

            assertThat(fixture.snapshot(app)).isEqualTo(before);
            // Bulk actions run in the background: no refused one started a job that could change rows later.
            assertThat(ok(viewer.get("/api/bulk-jobs")).get("items").isEmpty()).isTrue();
            assertThat(anonymous.get("/api/bulk-jobs").status()).isEqualTo(401);

            assertThat(app.errand().cluster().changes(10))
                    .as("no refused action left a row in the audit of the controls")
                    .isEmpty();

            // With the token, the admin acts.
            assertThat(ok(admin.session()).get("canAct").asBoolean()).isTrue();
            ok(admin.post("/api/queues/pause", "{\"queue\":\"default\"}"));
            ok(admin.post("/api/queues/resume", "{\"queue\":\"default\"}"));
            assertThat(app.errand().cluster().changes(10))
                    .extracting(ControlChange::actor, ControlChange::action, ControlChange::target)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple("console:admin", "resume-queue", "queue:default"),
                            org.assertj.core.groups.Tuple.tuple("console:admin", "pause-queue", "queue:default"));
            assertThat(ok(viewer.get("/api/cluster"))
                            .get("changes")
                            .get(0)
                            .get("actor")
                            .asString())
                    .as("the cluster page shows who changed the controls")
                    .isEqualTo("console:admin");
            ok(admin.post("/api/schedules/pause", "{\"name\":\"guarded\"}"));
            assertThat(app.errand().schedules().find("guarded").orElseThrow().paused())
                    .isTrue();

            // The application's own pages still go through its own chain.
            assertThat(anonymous.get("/../hello").status()).isNotEqualTo(200);
            HttpResponse<String> hello = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(app.baseUrl() + "/hello"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(hello.statusCode()).isIn(302, 401);
        }
    }

    @Test
    void aSignInThroughTheApplicationsFormLoginIsTheConsolesUser() throws Exception {
        try (RunningApp app = RunningApp.start(DB, "test.security=app-chain")) {
            HttpClient browser = HttpClient.newBuilder()
                    .cookieHandler(new java.net.CookieManager())
                    .build();
            HttpResponse<String> login = browser.send(
                    HttpRequest.newBuilder(URI.create(app.baseUrl() + "/login"))
                            .header("Content-Type", "application/x-www-form-urlencoded")
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    "username=viewer&password=" + ConsoleTestApp.PASSWORD))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(login.statusCode()).isEqualTo(302);
            HttpResponse<String> session = browser.send(
                    HttpRequest.newBuilder(URI.create(app.baseUrl() + "/errand/api/session"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(session.statusCode()).isEqualTo(200);
            assertThat(session.body()).contains("\"user\":\"viewer\"", "\"canAct\":false");
        }
    }

    @Test
    void springBootsDefaultChainStaysInPlaceBesideTheConsoles() throws Exception {
        try (RunningApp app = RunningApp.start(DB, "test.security=boot-default")) {
            HttpResponse<String> hello = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(app.baseUrl() + "/hello"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(hello.statusCode()).isIn(302, 401);
            ConsoleClient admin = new ConsoleClient(app.baseUrl() + "/errand", "admin", ConsoleTestApp.PASSWORD);
            assertThat(ok(admin.session()).get("canAct").asBoolean()).isTrue();
            ok(admin.post("/api/cluster/repoll", "{}"));
            assertThat(new ConsoleClient(app.baseUrl() + "/errand", null, null)
                            .get("/api/overview")
                            .status())
                    .isEqualTo(401);
        }
    }

    @Test
    void readOnlyRefusesEveryActionToTheAdminTooAndALoginPageReceivesAnonymousBrowsers() {
        try (RunningApp app = RunningApp.start(
                DB, "test.security=app-chain", "errand.console.read-only=true", "errand.console.login-page=/login")) {
            // With a login page, an anonymous browser is sent there; the API still answers 401.
            ConsoleClient anonymous = new ConsoleClient(app.baseUrl() + "/errand", null, null);
            Answer page = anonymous.get("/");
            assertThat(page.status()).isEqualTo(302);
            assertThat(page.header("Location")).endsWith("/login");
            assertThat(anonymous.get("/api/overview").status()).isEqualTo(401);
            Fixture fixture = Fixture.in(app);
            Snapshot before = fixture.snapshot(app);
            ConsoleClient admin = new ConsoleClient(app.baseUrl() + "/errand", "admin", ConsoleTestApp.PASSWORD);
            assertThat(ok(admin.session()).get("canAct").asBoolean()).isFalse();
            ok(admin.get("/api/overview"));
            for (String[] action : fixture.actions()) {
                assertThat(send(admin, action, true).status()).as(action[1]).isEqualTo(403);
            }
            assertThat(fixture.snapshot(app)).isEqualTo(before);
        }
    }

    @Test
    void aReplacementChainThatOpensTheConsolePathStillMeetsTheConsolesOwnChecks() {
        try (RunningApp app = RunningApp.start(DB, "test.security=app-chain", "test.open-console-chain=true")) {
            Fixture fixture = Fixture.in(app);
            Snapshot before = fixture.snapshot(app);
            ConsoleClient anonymous = new ConsoleClient(app.baseUrl() + "/errand", null, null);
            assertThat(anonymous.get("/api/overview").status()).isEqualTo(401);
            ConsoleClient admin = new ConsoleClient(app.baseUrl() + "/errand", "admin", ConsoleTestApp.PASSWORD);
            ok(admin.session());
            Answer refused = admin.post("/api/tasks/" + fixture.failed() + "/retry", null);
            assertThat(refused.status()).isEqualTo(403);
            assertThat(refused.json().get("message").asString()).contains("no CSRF protection ran");
            assertThat(fixture.snapshot(app)).isEqualTo(before);
        }
    }

    @Test
    void withoutSpringSecurityTheConsoleIsOffUnlessTurnedOn() {
        FilteredClassLoader noSecurity = new FilteredClassLoader("org.springframework.security");
        try (RunningApp app = RunningApp.start(DB, noSecurity)) {
            assertThat(new ConsoleClient(app.baseUrl() + "/errand", null, null)
                            .get("/api/session")
                            .status())
                    .isEqualTo(404);
            assertThat(app.context().getBeansOfType(ConsoleRoutes.class)).isEmpty();
        }
        try (RunningApp app = RunningApp.start(DB, noSecurity, "errand.console.enabled=true")) {
            Fixture fixture = Fixture.in(app);
            ConsoleClient anyone = new ConsoleClient(app.baseUrl() + "/errand", null, null);
            assertThat(anyone.get("/").header("Content-Security-Policy"))
                    .isEqualTo(ConsoleHeadersFilter.CONTENT_SECURITY_POLICY);
            Answer forged = anyone.postWithoutCsrf("/api/tasks/" + fixture.pending() + "/cancel", null);
            assertThat(forged.status()).isEqualTo(403);
            assertThat(forged.json().get("message").asString()).contains("X-Errand-Csrf");
            assertThat(app.errand()
                            .admin()
                            .find(fixture.pending())
                            .orElseThrow()
                            .state())
                    .isEqualTo(TaskState.PENDING);
            assertThat(ok(anyone.session()).get("canAct").asBoolean()).isTrue();
            ok(anyone.post("/api/tasks/" + fixture.pending() + "/cancel", null));
            assertThat(app.errand()
                            .admin()
                            .find(fixture.pending())
                            .orElseThrow()
                            .state())
                    .isEqualTo(TaskState.CANCELLED);
        }
        try (RunningApp app =
                RunningApp.start(DB, noSecurity, "errand.console.enabled=true", "errand.console.read-only=true")) {
            ConsoleClient anyone = new ConsoleClient(app.baseUrl() + "/errand", null, null);
            ok(anyone.session());
            assertThat(anyone.post("/api/cluster/repoll", "{}").status()).isEqualTo(403);
        }
    }

    @Test
    void theConsoleServesNothingOutsideItsPath() {
        try (RunningApp app = RunningApp.start(DB, "test.security=app-chain", "errand.console.path=/ops/console")) {
            List<String> routes = new ArrayList<>();
            app.context().getBean(ConsoleRoutes.class).routerFunction().accept(new RouterFunctions.Visitor() {
                @Override
                public void startNested(org.springframework.web.servlet.function.RequestPredicate p) {}

                @Override
                public void endNested(org.springframework.web.servlet.function.RequestPredicate p) {}

                @Override
                public void route(
                        org.springframework.web.servlet.function.RequestPredicate predicate,
                        org.springframework.web.servlet.function.HandlerFunction<?> handler) {
                    routes.add(predicate.toString());
                }

                @Override
                public void resources(
                        java.util.function.Function<
                                        org.springframework.web.servlet.function.ServerRequest,
                                        java.util.Optional<org.springframework.core.io.Resource>>
                                lookup) {
                    routes.add(lookup.toString());
                }

                @Override
                public void attributes(Map<String, Object> attributes) {}

                @Override
                public void unknown(org.springframework.web.servlet.function.RouterFunction<?> function) {
                    routes.add("unknown " + function);
                }
            });
            assertThat(routes).hasSizeGreaterThan(30);
            assertThat(routes).allSatisfy(route -> assertThat(route).contains("/ops/console"));
            ConsoleClient admin = new ConsoleClient(app.baseUrl() + "/ops/console", "admin", ConsoleTestApp.PASSWORD);
            ok(admin.session());
            // The OpenAPI document describes every API route, and nothing else.
            tools.jackson.databind.JsonNode documented =
                    ok(admin.get("/api/openapi.json")).get("paths");
            java.util.Set<String> described = new java.util.TreeSet<>();
            documented.properties().forEach(path -> path.getValue()
                    .properties()
                    .forEach(method ->
                            described.add(method.getKey().toUpperCase(java.util.Locale.ROOT) + " " + path.getKey())));
            java.util.Set<String> served = new java.util.TreeSet<>();
            java.util.regex.Matcher route = java.util.regex.Pattern.compile(
                            "(GET|POST|DELETE) && /ops/console/api(/\\S+?)\\)")
                    .matcher(String.join(" ", routes));
            while (route.find()) {
                served.add(route.group(1) + " " + route.group(2));
            }
            assertThat(described).isEqualTo(served);
            ConsoleClient elsewhere = new ConsoleClient(app.baseUrl() + "/errand", "admin", ConsoleTestApp.PASSWORD);
            assertThat(elsewhere.get("/api/session").status()).isEqualTo(404);
        }
    }

    private static String basic(String user) {
        return "Basic "
                + java.util.Base64.getEncoder()
                        .encodeToString((user + ":" + ConsoleTestApp.PASSWORD)
                                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
