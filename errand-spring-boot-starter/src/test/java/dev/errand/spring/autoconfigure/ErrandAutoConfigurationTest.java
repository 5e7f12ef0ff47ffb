package dev.errand.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.Errand;
import dev.errand.config.ClaimOrder;
import dev.errand.spi.TransactionRunner;
import dev.errand.spring.ErrandBuilderCustomizer;
import dev.errand.spring.ErrandClient;
import dev.errand.spring.ErrandLifecycle;
import dev.errand.spring.ErrandTaskExecutor;
import dev.errand.spring.ErrandTasks;
import dev.errand.spring.PersistentRunnables;
import dev.errand.spring.SpringTransactionRunner;
import dev.errand.spring.TaskStatistics;
import dev.errand.spring.actuate.ErrandEndpoint;
import dev.errand.spring.actuate.ErrandHealthIndicator;
import dev.errand.spring.metrics.ErrandMetrics;
import dev.errand.spring.metrics.ErrandQueueMetrics;
import dev.errand.spring.testing.PostgresTables;
import dev.errand.testkit.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mockito.Mockito;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * What the auto-configuration creates, when it backs off, and how it binds {@code errand.*}. Contexts run
 * with migrations off where no table is needed: Errand only detects the dialect, so nothing is created.
 */
class ErrandAutoConfigurationTest {

    private static final AutoConfigurations ERRAND = AutoConfigurations.of(
            DataSourceAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class,
            ErrandAutoConfiguration.class, ErrandTaskExecutorAutoConfiguration.class,
            ErrandJpaAutoConfiguration.class, ErrandHealthAutoConfiguration.class,
            ErrandEndpointAutoConfiguration.class, ErrandMetricsAutoConfiguration.class);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(ERRAND)
            .withInitializer(new PostgresTables())
            .withPropertyValues(
                    "errand.migrations-enabled=false",
                    "errand.processing-enabled=false",
                    "management.endpoints.web.exposure.include=*");

    @Test
    void configuresEveryBeanWhenADataSourceIsPresent() {
        runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withBean(PersistentRunnables.class, () -> PersistentRunnables.of(Noop.class))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context)
                            .hasSingleBean(Errand.class)
                            .hasSingleBean(ErrandClient.class)
                            .hasSingleBean(ErrandLifecycle.class)
                            .hasSingleBean(ErrandTasks.class)
                            .hasSingleBean(TaskStatistics.class)
                            .hasSingleBean(ErrandHealthIndicator.class)
                            .hasSingleBean(ErrandEndpoint.class)
                            .hasSingleBean(ErrandMetrics.class)
                            .hasSingleBean(ErrandQueueMetrics.class)
                            .hasSingleBean(ErrandTaskExecutor.class);
                    assertThat(context.getBean(TransactionRunner.class)).isInstanceOf(SpringTransactionRunner.class);
                    assertThat(((SpringTransactionRunner) context.getBean(TransactionRunner.class))
                                    .transactionManager())
                            .isSameAs(context.getBean(PlatformTransactionManager.class));
                });
    }

    @Test
    void backsOffWithoutADataSource() {
        new ApplicationContextRunner()
                .withConfiguration(ERRAND)
                .withClassLoader(new FilteredClassLoader("com.zaxxer.hikari", "org.h2", "org.postgresql"))
                .run(context -> assertThat(context)
                        .doesNotHaveBean(Errand.class)
                        .doesNotHaveBean(ErrandClient.class)
                        .doesNotHaveBean(ErrandProperties.class));
    }

    @Test
    void backsOffWhenTurnedOff() {
        runner.withPropertyValues("errand.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(Errand.class));
    }

    static Stream<Arguments> userBeans() {
        return Stream.of(
                Arguments.of(ErrandClient.class, (Supplier<Object>) () -> null),
                Arguments.of(TransactionRunner.class, (Supplier<Object>) TransactionRunner::jdbc),
                Arguments.of(ErrandLifecycle.class, (Supplier<Object>) () -> null),
                Arguments.of(ErrandTasks.class, (Supplier<Object>) () -> new ErrandTasks(List.of())),
                Arguments.of(TaskStatistics.class, (Supplier<Object>) () -> null),
                Arguments.of(ErrandEndpoint.class, (Supplier<Object>) () -> null),
                Arguments.of(
                        ErrandMetrics.class, (Supplier<Object>) () -> new ErrandMetrics(new SimpleMeterRegistry())),
                Arguments.of(ErrandQueueMetrics.class, (Supplier<Object>) () -> null),
                Arguments.of(ErrandTaskExecutor.class, (Supplier<Object>) () -> null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("userBeans")
    @SuppressWarnings({"unchecked", "rawtypes"})
    void backsOffForEachBeanTheUserDefines(Class<?> type, Supplier<Object> simple) {
        runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withBean(PersistentRunnables.class, () -> PersistentRunnables.of(Noop.class))
                .withBean("userBean", (Class) type, (Supplier) () -> {
                    Object instance = simple.get();
                    return instance != null ? instance : Mockito.mock(type);
                })
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBeanNamesForType(type)).containsExactly("userBean");
                });
    }

    @Test
    void backsOffForTheUsersErrandAndStillBindsItsLifecycle() {
        runner.withUserConfiguration(UserErrand.class).run(context -> {
            assertThat(context).hasSingleBean(Errand.class);
            assertThat(context.getBean(Errand.class).settings().nodeId()).isEqualTo("users-own");
            assertThat(context.getBean(ErrandLifecycle.class).isRunning()).isTrue();
        });
    }

    @Test
    void backsOffForTheUsersHealthIndicatorByName() {
        runner.withBean("errandHealthIndicator", HealthIndicator.class, () -> () -> null)
                .run(context -> assertThat(context).doesNotHaveBean(ErrandHealthIndicator.class));
    }

    @Test
    void eachOptionalIntegrationNeedsItsClasses() {
        runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withClassLoader(new FilteredClassLoader(
                        MeterRegistry.class,
                        HealthIndicator.class,
                        org.springframework.boot.actuate.endpoint.annotation.Endpoint.class))
                .run(context -> assertThat(context)
                        .hasNotFailed()
                        .hasSingleBean(Errand.class)
                        .doesNotHaveBean(ErrandMetrics.class)
                        .doesNotHaveBean(ErrandQueueMetrics.class)
                        .doesNotHaveBean(ErrandHealthIndicator.class)
                        .doesNotHaveBean(ErrandEndpoint.class));
    }

    @Test
    void taskExecutorNeedsPersistentRunnablesAndCanBeTurnedOff() {
        runner.run(context -> assertThat(context).doesNotHaveBean(ErrandTaskExecutor.class));
        runner.withBean(PersistentRunnables.class, () -> PersistentRunnables.of(Noop.class))
                .withPropertyValues("errand.task-executor.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(ErrandTaskExecutor.class));
    }

    @Test
    void bindsEveryPropertyOntoTheNode() {
        runner.withPropertyValues(
                        "errand.node-id=node-7",
                        "errand.queues.mail.concurrency=3",
                        "errand.queues.default.concurrency=2",
                        "errand.poll-interval=250ms",
                        "errand.claim-batch-size=7",
                        "errand.lease-duration=2m",
                        "errand.heartbeat-interval=15s",
                        "errand.completion-flush-interval=20ms",
                        "errand.completion-batch-size=50",
                        "errand.rescue-interval=30s",
                        "errand.shutdown-timeout=5s",
                        "errand.succeeded-retention=7d",
                        "errand.prune-interval=10m",
                        "errand.unknown-kind-retry-delay=2m",
                        "errand.default-max-attempts=9",
                        "errand.claim-strategy=optimistic-version",
                        "errand.claim-order=fewest-attempts-first",
                        "errand.dialect=postgresql")
                .run(context -> {
                    var settings = context.getBean(Errand.class).settings();
                    assertThat(settings.nodeId()).isEqualTo("node-7");
                    assertThat(settings.queues()).containsOnly(Map.entry("mail", 3), Map.entry("default", 2));
                    assertThat(settings.processingEnabled()).isFalse();
                    assertThat(settings.pollInterval()).isEqualTo(Duration.ofMillis(250));
                    assertThat(settings.claimBatchSize()).isEqualTo(7);
                    assertThat(settings.leaseDuration()).isEqualTo(Duration.ofMinutes(2));
                    assertThat(settings.heartbeatInterval()).isEqualTo(Duration.ofSeconds(15));
                    assertThat(settings.completionFlushInterval()).isEqualTo(Duration.ofMillis(20));
                    assertThat(settings.completionBatchSize()).isEqualTo(50);
                    assertThat(settings.rescueInterval()).isEqualTo(Duration.ofSeconds(30));
                    assertThat(settings.shutdownTimeout()).isEqualTo(Duration.ofSeconds(5));
                    assertThat(settings.succeededRetention()).isEqualTo(Duration.ofDays(7));
                    assertThat(settings.pruneInterval()).isEqualTo(Duration.ofMinutes(10));
                    assertThat(settings.unknownKindRetryDelay()).isEqualTo(Duration.ofMinutes(2));
                    assertThat(settings.defaultMaxAttempts()).isEqualTo(9);
                    assertThat(settings.claimOrder()).isEqualTo(ClaimOrder.FEWEST_ATTEMPTS_FIRST);
                    assertThat(settings.tablePrefix().value()).startsWith("t");
                    assertThat(settings.migrationsEnabled()).isFalse();
                    assertThat(context.getBean(TransactionRunner.class)).isInstanceOf(SpringTransactionRunner.class);
                    assertThat(context.getBean(Errand.class).dialectName()).isEqualTo("postgresql");
                    assertThat(context.getBean(ErrandProperties.class).getClaimStrategy())
                            .isEqualTo(ErrandProperties.ClaimStrategy.OPTIMISTIC_VERSION);
                });
    }

    @Test
    void builderCustomizersRunLast() {
        runner.withPropertyValues("errand.default-max-attempts=9")
                .withBean(ErrandBuilderCustomizer.class, () -> builder -> builder.defaultMaxAttempts(2))
                .run(context -> assertThat(
                                context.getBean(Errand.class).settings().defaultMaxAttempts())
                        .isEqualTo(2));
    }

    @Test
    void fallsBackToADataSourceTransactionManagerWhenTheContextHasNone() {
        new ApplicationContextRunner()
                .withConfiguration(
                        AutoConfigurations.of(DataSourceAutoConfiguration.class, ErrandAutoConfiguration.class))
                .withInitializer(new PostgresTables())
                .withPropertyValues("errand.migrations-enabled=false", "errand.processing-enabled=false")
                .run(context -> assertThat(((SpringTransactionRunner) context.getBean(TransactionRunner.class))
                                .transactionManager())
                        .isInstanceOf(DataSourceTransactionManager.class));
    }

    @Test
    void rejectsAmbiguousTransactionManagers() {
        runner.withUserConfiguration(TwoTransactionManagers.class).run(context -> assertThat(context)
                .getFailure()
                .rootCause()
                .hasMessageContaining("Errand needs one PlatformTransactionManager")
                .hasMessageContaining("@Primary"));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("invalidProperties")
    void invalidPropertiesStopStartUpNamingThePropertyAndItsRange(String property, String value, String expected) {
        // No PostgresTables initializer here: it would set errand.table-prefix after this test's value.
        new ApplicationContextRunner()
                .withConfiguration(ERRAND)
                .withPropertyValues(TestDatabase.POSTGRES.springProperties(TestDatabase.newPrefix()))
                .withPropertyValues("errand.migrations-enabled=false", "errand.processing-enabled=false")
                .withPropertyValues(property + "=" + value)
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(fullMessage(context.getStartupFailure())).contains(expected);
                });
    }

    static Stream<Arguments> invalidProperties() {
        return Stream.of(
                Arguments.of(
                        "errand.poll-interval", "5ms", "errand.poll-interval must be between 10ms and 1h, got 5ms"),
                Arguments.of(
                        "errand.claim-batch-size", "0", "errand.claim-batch-size must be between 1 and 10000, got 0"),
                Arguments.of(
                        "errand.queues.mail.concurrency",
                        "0",
                        "errand.queues.mail.concurrency must be between 1 and 1000, got 0"),
                Arguments.of(
                        "errand.lease-duration",
                        "10s",
                        "errand.lease-duration (10s) must be at least twice errand.heartbeat-interval (10s)"),
                Arguments.of(
                        "errand.heartbeat-interval",
                        "2h",
                        "errand.heartbeat-interval must be between 100ms and 1h, got 2h"),
                Arguments.of(
                        "errand.shutdown-timeout", "-1s", "errand.shutdown-timeout must be between 0s and 1h, got -1s"),
                Arguments.of(
                        "errand.succeeded-retention",
                        "500ms",
                        "errand.succeeded-retention must be between 1s and 3650d, got 500ms"),
                Arguments.of(
                        "errand.default-max-attempts",
                        "1001",
                        "errand.default-max-attempts must be between 1 and 1000, got 1001"),
                Arguments.of("errand.table-prefix", "bad-prefix", "errand.table-prefix must be a letter or '_'"),
                Arguments.of("errand.node-id", " ", "errand.node-id must be 1 to 200 non-blank characters"),
                Arguments.of(
                        "errand.stats.cache-duration", "2h", "errand.stats.cache-duration must be between 0s and 1h"),
                Arguments.of("errand.poll-interval", "soon", "errand.poll-interval"),
                Arguments.of(
                        "errand.dialect", "oracle", "errand.dialect must be one of postgresql, mariadb, mysql, h2"),
                Arguments.of("errand.claim-strategy", "fastest", "errand.claim-strategy"),
                Arguments.of("errand.claim-order", "random", "errand.claim-order"));
    }

    @Test
    void configurationMetadataDescribesTheProperties() throws Exception {
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in)
                    .as("metadata generated by spring-boot-configuration-processor")
                    .isNotNull();
            String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(json)
                    .contains(
                            "\"errand.poll-interval\"",
                            "\"errand.queues\"",
                            "\"errand.table-prefix\"",
                            "\"errand.processing-enabled\"",
                            "\"errand.succeeded-retention\"",
                            "\"errand.shutdown-timeout\"",
                            "\"errand.node-id\"",
                            "\"errand.claim-batch-size\"",
                            "\"errand.migrations-enabled\"",
                            "10ms to 1h",
                            "\"defaultValue\": \"500ms\"");
        }
    }

    private static String fullMessage(Throwable failure) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            text.append(t.getMessage()).append('\n');
        }
        return text.toString();
    }

    @Configuration(proxyBeanMethods = false)
    static class UserErrand {
        @Bean
        Errand userErrand(DataSource dataSource) {
            return Errand.builder(dataSource)
                    .tablePrefix(TestDatabase.newPrefix())
                    .migrationsEnabled(false)
                    .processingEnabled(false)
                    .nodeId("users-own")
                    .build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoTransactionManagers {
        @Bean
        PlatformTransactionManager firstTransactionManager(DataSource dataSource) {
            return new DataSourceTransactionManager(dataSource);
        }

        @Bean
        PlatformTransactionManager secondTransactionManager(DataSource dataSource) {
            return new DataSourceTransactionManager(dataSource);
        }
    }

    /** A runnable that may be declared persistent. */
    public static class Noop implements Runnable {
        public String name = "noop";

        @Override
        public void run() {}
    }
}
