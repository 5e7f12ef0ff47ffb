package dev.errand.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.console.api.ConsoleApiExtension;
import dev.errand.console.testing.ConsoleClient;
import dev.errand.console.testing.ConsoleTestApp;
import dev.errand.console.testing.RunningApp;
import dev.errand.testkit.TestDatabase;
import org.junit.jupiter.api.Test;

/**
 * A {@link ConsoleApiExtension}'s routes, on H2 (the checks do not depend on the database): served under the API's
 * path, behind the console's own checks (a viewer reads, the admin authority and the CSRF token act), and never in
 * place of a console route.
 */
class ConsoleApiExtensionTest {

    @Test
    void extensionRoutesPassTheConsolesChecksAndShadowNothing() {
        try (RunningApp app = RunningApp.start(TestDatabase.H2, "test.security=app-chain", "test.extension=true")) {
            String console = app.baseUrl() + "/errand";

            assertThat(new ConsoleClient(console, null, null).get("/api/echo").status())
                    .isEqualTo(401);

            ConsoleClient viewer = new ConsoleClient(console, "viewer", ConsoleTestApp.PASSWORD);
            viewer.session();
            ConsoleClient.Answer read = viewer.get("/api/echo");
            assertThat(read.status()).isEqualTo(200);
            assertThat(read.body()).isEqualTo("echo");
            assertThat(viewer.post("/api/echo", "{}").status()).isEqualTo(403);

            ConsoleClient admin = new ConsoleClient(console, "admin", ConsoleTestApp.PASSWORD);
            assertThat(admin.postWithoutCsrf("/api/echo", "{}").status()).isEqualTo(403);
            ConsoleClient.Answer session = admin.session();
            assertThat(session.status()).isEqualTo(200);
            assertThat(session.json().get("canAct").asBoolean()).isTrue();
            ConsoleClient.Answer posted = admin.post("/api/echo", "{}");
            assertThat(posted.status()).isEqualTo(200);
            assertThat(posted.body()).isEqualTo("posted");
            assertThat(admin.get("/api/nothing-here").status()).isEqualTo(404);
        }
    }
}
