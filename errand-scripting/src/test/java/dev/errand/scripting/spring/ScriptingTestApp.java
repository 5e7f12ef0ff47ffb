package dev.errand.scripting.spring;

import dev.errand.testkit.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;

/**
 * The application scripting's Spring tests run: auto-configuration only, with the users {@code admin} (the
 * console's admin authority) and {@code viewer} (signed in, without it), on one of the test databases under a
 * prefix of its own that {@link Running#close()} drops.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class ScriptingTestApp {

    /** The password of every test user. */
    public static final String PASSWORD = "secret-password";

    @Bean
    InMemoryUserDetailsManager users() {
        return new InMemoryUserDetailsManager(
                User.withUsername("admin")
                        .password("{noop}" + PASSWORD)
                        .roles("ERRAND_ADMIN", "USER")
                        .build(),
                User.withUsername("viewer")
                        .password("{noop}" + PASSWORD)
                        .roles("USER")
                        .build());
    }

    /** A running application. */
    public record Running(TestDatabase database, String prefix, ConfigurableApplicationContext context)
            implements AutoCloseable {

        /** The console's base URL, such as {@code http://127.0.0.1:43210/errand}. */
        public String console() {
            return "http://127.0.0.1:"
                    + ((WebServerApplicationContext) context).getWebServer().getPort() + "/errand";
        }

        @Override
        public void close() {
            context.close();
            database.dropTables(prefix);
        }
    }

    /** Starts the application, as a web server on a free port or without a web server. */
    public static Running start(TestDatabase database, boolean web, String... properties) {
        String prefix = TestDatabase.newPrefix();
        List<String> all = new ArrayList<>(List.of(database.springProperties(prefix)));
        all.addAll(List.of(
                "server.port=0",
                "server.address=127.0.0.1",
                "spring.main.banner-mode=off",
                "errand.poll-interval=100ms",
                "errand.rescue-interval=1s",
                "errand.shutdown-timeout=2s",
                "errand.succeeded-retention=1h",
                "errand.unknown-kind-retry-delay=1h"));
        all.addAll(List.of(properties));
        ConfigurableApplicationContext context = new SpringApplicationBuilder(ScriptingTestApp.class)
                .web(web ? WebApplicationType.SERVLET : WebApplicationType.NONE)
                .properties(all.toArray(String[]::new))
                .run();
        return new Running(database, prefix, context);
    }
}
