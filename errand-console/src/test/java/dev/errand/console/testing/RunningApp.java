package dev.errand.console.testing;

import dev.errand.Errand;
import dev.errand.testkit.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.DefaultResourceLoader;

/**
 * A {@link ConsoleTestApp} running on a free port against one of the test databases, with Errand's tables
 * under a prefix of its own that {@link #close()} drops.
 */
public final class RunningApp implements AutoCloseable {

    private final TestDatabase database;
    private final String prefix;
    private final ConfigurableApplicationContext context;

    private RunningApp(TestDatabase database, String prefix, ConfigurableApplicationContext context) {
        this.database = database;
        this.prefix = prefix;
        this.context = context;
    }

    /** Starts the application with these extra properties. */
    public static RunningApp start(TestDatabase database, String... properties) {
        return start(database, null, properties);
    }

    /** Starts the application with a class loader (for example one that hides Spring Security). */
    public static RunningApp start(TestDatabase database, ClassLoader classLoader, String... properties) {
        String prefix = TestDatabase.newPrefix();
        List<String> all = new ArrayList<>(List.of(database.springProperties(prefix)));
        all.addAll(List.of(
                "server.port=0",
                "server.address=127.0.0.1",
                "spring.main.banner-mode=off",
                "errand.node-id=console-test",
                "errand.poll-interval=100ms",
                "errand.rescue-interval=1s",
                "errand.shutdown-timeout=2s",
                "errand.history-enabled=true",
                "errand.succeeded-retention=1h",
                "errand.stats.cache-duration=0s",
                "errand.queues.default.concurrency=2",
                "errand.queues.side.concurrency=1"));
        all.addAll(List.of(properties));
        SpringApplicationBuilder builder =
                new SpringApplicationBuilder(ConsoleTestApp.class).properties(all.toArray(String[]::new));
        if (classLoader != null) {
            builder.resourceLoader(new DefaultResourceLoader(classLoader));
        }
        return new RunningApp(database, prefix, builder.run());
    }

    /** The base URL of the server, such as {@code http://127.0.0.1:43210}. */
    public String baseUrl() {
        return "http://127.0.0.1:"
                + ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    public Errand errand() {
        return context.getBean(Errand.class);
    }

    public ConfigurableApplicationContext context() {
        return context;
    }

    /** The table prefix of this application's Errand tables. */
    public String prefix() {
        return prefix;
    }

    public TestDatabase database() {
        return database;
    }

    @Override
    public void close() {
        context.close();
        database.dropTables(prefix);
    }
}
