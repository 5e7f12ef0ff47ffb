package dev.errand.console.testing;

import dev.errand.console.api.ConsoleApiExtension;
import dev.errand.process.ProcessDefinition;
import dev.errand.process.ProcessKind;
import dev.errand.task.TaskDefinition;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * The application the console's tests run: a few task kinds, a process ({@link #TALLY}), the users {@code admin} (with the console's admin
 * authority) and {@code viewer} (without it), and a page {@code /hello} of its own. {@code test.security}
 * chooses the application's security: {@code app-chain} (its own filter chain: everything authenticated, form
 * login and HTTP Basic, CSRF turned off) or {@code boot-default} (no chain of its own: Spring Boot's default).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class ConsoleTestApp {

    /** The password of every test user. */
    public static final String PASSWORD = "secret-password";

    /** The kind whose handler fails while {@link #FAILING} is set, after writing a log line. */
    public static final String FLAKY = "flaky";

    /** A kind whose handler succeeds. */
    public static final String WORK = "work";

    /** A kind whose handler runs until {@link #HOLDING} is counted down (at most a minute). */
    public static final String HOLD = "hold";

    /** Holds the tasks of {@link #HOLD}; a test that uses it sets a new latch first and counts it down. */
    public static final java.util.concurrent.atomic.AtomicReference<java.util.concurrent.CountDownLatch> HOLDING =
            new java.util.concurrent.atomic.AtomicReference<>(new java.util.concurrent.CountDownLatch(0));

    /**
     * A process whose batches do nothing. Started with a node group no node serves, its batches are never
     * claimed and it stays running until cancelled.
     */
    public static final ProcessKind<Integer> TALLY = ProcessKind.of("tally", Integer.class);

    /** Makes {@link #FLAKY} fail. */
    public static final AtomicBoolean FAILING = new AtomicBoolean(true);

    /** A kind name, payload, error and log line made of markup that would run script if rendered as HTML. */
    public static final String HOSTILE = "<script>window.xssFired='kind'</script>"
            + "<img src=x onerror=\"window.xssFired='img'\">\"'><svg onload=\"window.xssFired='svg'\">";

    @Bean
    TaskDefinition<Map> flaky() {
        return TaskDefinition.builder(FLAKY, Map.class, (payload, context) -> {
                    context.log("trying to reach the gateway");
                    if (FAILING.get()) {
                        throw new IllegalStateException("gateway down");
                    }
                })
                .maxAttempts(1)
                .build();
    }

    @Bean
    TaskDefinition<Map> work() {
        return TaskDefinition.builder(WORK, Map.class, (payload, context) -> {}).build();
    }

    @Bean
    TaskDefinition<Map> hold() {
        return TaskDefinition.builder(HOLD, Map.class, (payload, context) -> {
                    context.progress(2, 5, "holding <b>on</b>");
                    HOLDING.get().await(1, java.util.concurrent.TimeUnit.MINUTES);
                })
                .build();
    }

    @Bean
    TaskDefinition<Map> hostile() {
        return TaskDefinition.builder(HOSTILE, Map.class, (payload, context) -> {
                    context.log("log line " + HOSTILE);
                    throw new IllegalArgumentException("error " + HOSTILE);
                })
                .maxAttempts(1)
                .build();
    }

    @Bean
    ProcessDefinition<Integer> tally() {
        return ProcessDefinition.simple(TALLY, (items, batch) -> {});
    }

    @Bean
    RouterFunction<ServerResponse> hello() {
        return RouterFunctions.route()
                .GET("/hello", request -> ServerResponse.ok().body("hello"))
                .build();
    }

    /**
     * An extension of the JSON API: {@code GET} and {@code POST <path>/api/echo}, and a {@code GET /session} that
     * must not shadow the console's own.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "test.extension", havingValue = "true")
    static class Extension {
        @Bean
        ConsoleApiExtension echoExtension() {
            return api -> api.GET("/echo", request -> ServerResponse.ok().body("echo"))
                    .POST("/echo", request -> ServerResponse.ok().body("posted"))
                    .GET("/session", request -> ServerResponse.ok().body("shadowed"));
        }
    }

    /** The users, for both kinds of security. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "test.security")
    static class Users {
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
    }

    /**
     * A replacement of the console's chain (by its bean name) that permits everything on the console's path and
     * turns CSRF off: the console's own checks must still hold.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "test.open-console-chain", havingValue = "true")
    static class OpenConsoleChain {
        @Bean
        @org.springframework.core.annotation.Order(1)
        SecurityFilterChain errandConsoleSecurityFilterChain(HttpSecurity http) throws Exception {
            return http.securityMatcher("/errand/**")
                    .authorizeHttpRequests(requests -> requests.anyRequest().permitAll())
                    .httpBasic(basic -> {})
                    .csrf(csrf -> csrf.disable())
                    .build();
        }
    }

    /** The application's own chain: everything authenticated, form login and Basic, and CSRF turned off. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "test.security", havingValue = "app-chain")
    static class AppChain {
        @Bean
        SecurityFilterChain applicationChain(HttpSecurity http) throws Exception {
            return http.authorizeHttpRequests(requests -> requests.anyRequest().authenticated())
                    .formLogin(form -> {})
                    .httpBasic(basic -> {})
                    .csrf(csrf -> csrf.disable())
                    .build();
        }
    }
}
