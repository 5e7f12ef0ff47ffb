package dev.errand.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.Errand;
import dev.errand.spring.ErrandClient;
import dev.errand.spring.ErrandTask;
import dev.errand.spring.ErrandTaskCustomizer;
import dev.errand.spring.ErrandTasks;
import dev.errand.spring.PersistentRunnables;
import dev.errand.spring.testing.PostgresTables;
import dev.errand.task.ExecutionMode;
import dev.errand.task.FailedTask;
import dev.errand.task.FailureCallback;
import dev.errand.task.LeaseExpiryAction;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskHandler;
import java.sql.Connection;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

/** {@link ErrandTask} beans, customizers and the errors that stop start-up. */
class ErrandTaskDiscoveryTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    DataSourceTransactionManagerAutoConfiguration.class,
                    ErrandAutoConfiguration.class))
            .withInitializer(new PostgresTables())
            .withPropertyValues("errand.migrations-enabled=false", "errand.processing-enabled=false");

    record Sms(String to, String text) {}

    @ErrandTask(
            value = "send-sms",
            mode = ExecutionMode.NON_TRANSACTIONAL,
            maxAttempts = 3,
            retry = ErrandTask.Retry.EXPONENTIAL,
            retryDelay = "1s",
            retryMaxDelay = "1m",
            leaseDuration = "5m",
            executionTimeout = "90s",
            concurrencyLimit = 10,
            onLeaseExpired = LeaseExpiryAction.FAIL)
    static class SendSms implements TaskHandler<Sms>, FailureCallback {
        @Override
        public void handle(Sms payload, TaskContext context) {}

        @Override
        public void onFailure(FailedTask task, Connection connection) {}
    }

    @ErrandTask(
            value = "archive",
            retry = ErrandTask.Retry.FIXED,
            retryDelay = "${test.archive-delay:7s}",
            groupCommit = 50)
    static class Archive implements TaskHandler<Void> {
        @Override
        public void handle(Void payload, TaskContext context) {}
    }

    @Test
    void registersAnnotatedBeansWithTheirOptions() {
        runner.withBean("sendSms", SendSms.class)
                .withBean("archive", Archive.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    ErrandTasks tasks = context.getBean(ErrandTasks.class);
                    assertThat(tasks.definitions())
                            .extracting(TaskDefinition::kind)
                            .containsExactly("send-sms", "archive");

                    TaskDefinition<?> sms = tasks.find("send-sms").orElseThrow().definition();
                    assertThat(sms.payloadType()).isEqualTo(Sms.class);
                    assertThat(sms.mode()).isEqualTo(ExecutionMode.NON_TRANSACTIONAL);
                    assertThat(sms.maxAttempts()).isEqualTo(3);
                    assertThat(sms.leaseDuration()).isEqualTo(Duration.ofMinutes(5));
                    assertThat(sms.executionTimeout()).isEqualTo(Duration.ofSeconds(90));
                    assertThat(sms.concurrencyLimit()).isEqualTo(10);
                    assertThat(sms.concurrencyLimitPerKey()).isNull();
                    assertThat(sms.leaseExpiryAction()).isEqualTo(LeaseExpiryAction.FAIL);
                    assertThat(sms.failureCallback()).isNotNull();
                    assertThat(sms.retryPolicy().delayAfter(1))
                            .isBetween(Duration.ofMillis(800), Duration.ofMillis(1200));
                    assertThat(sms.retryPolicy().delayAfter(20)).isLessThanOrEqualTo(Duration.ofMinutes(1));
                    assertThat(tasks.find("send-sms").orElseThrow().source())
                            .contains("sendSms", SendSms.class.getName());

                    TaskDefinition<?> archive =
                            tasks.find("archive").orElseThrow().definition();
                    assertThat(archive.payloadType()).isEqualTo(Void.class);
                    assertThat(archive.mode()).isEqualTo(ExecutionMode.TRANSACTIONAL);
                    assertThat(archive.maxAttempts()).isNull();
                    assertThat(archive.concurrencyLimit()).isNull();
                    assertThat(archive.groupCommit()).isEqualTo(50);
                    assertThat(sms.groupCommit()).isEqualTo(1);
                    assertThat(archive.retryPolicy().delayAfter(3)).isEqualTo(Duration.ofSeconds(7));
                    assertThat(archive.failureCallback()).isNull();
                });
    }

    @Test
    void resolvesPlaceholdersInDurations() {
        runner.withBean("archive", Archive.class)
                .withPropertyValues("test.archive-delay=250ms")
                .run(context -> assertThat(context.getBean(ErrandTasks.class)
                                .find("archive")
                                .orElseThrow()
                                .definition()
                                .retryPolicy()
                                .delayAfter(1))
                        .isEqualTo(Duration.ofMillis(250)));
    }

    @Configuration(proxyBeanMethods = false)
    static class Customizers {
        @Bean
        @Order(1)
        ErrandTaskCustomizer fewerAttempts() {
            return ErrandTaskCustomizer.forKind("send-sms", definition -> definition.maxAttempts(2));
        }

        @Bean
        @Order(2)
        ErrandTaskCustomizer everyKindTransactional() {
            return (kind, definition) -> definition.mode(ExecutionMode.TRANSACTIONAL);
        }
    }

    @Test
    void customizersChangeAnnotatedOptions() {
        runner.withBean("sendSms", SendSms.class)
                .withBean("archive", Archive.class)
                .withUserConfiguration(Customizers.class)
                .run(context -> {
                    ErrandTasks tasks = context.getBean(ErrandTasks.class);
                    assertThat(tasks.find("send-sms").orElseThrow().definition().maxAttempts())
                            .isEqualTo(2);
                    assertThat(tasks.find("send-sms").orElseThrow().definition().mode())
                            .isEqualTo(ExecutionMode.TRANSACTIONAL);
                    assertThat(tasks.find("archive").orElseThrow().definition().maxAttempts())
                            .isNull();
                });
    }

    @ErrandTask("send-sms")
    static class OtherSmsSender implements TaskHandler<Sms> {
        @Override
        public void handle(Sms payload, TaskContext context) {}
    }

    @Test
    void twoBeansClaimingOneKindStopStartUp() {
        runner.withBean("sendSms", SendSms.class)
                .withBean("otherSmsSender", OtherSmsSender.class)
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context)
                            .getFailure()
                            .rootCause()
                            .hasMessageContaining("Task kind 'send-sms' is claimed twice")
                            .hasMessageContaining("'sendSms'")
                            .hasMessageContaining("'otherSmsSender'")
                            .hasMessageContaining("Each kind needs exactly one handler");
                });
    }

    /** A runnable whose kind collides with a handler's. */
    public static class Collides implements Runnable {
        public int n = 1;

        @Override
        public void run() {}
    }

    @Test
    void aRunnableAndAHandlerClaimingOneKindStopStartUp() {
        runner.withBean("archive", Archive.class)
                .withBean("runnables", PersistentRunnables.class, () -> PersistentRunnables.of()
                        .and("archive", Collides.class))
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("Task kind 'archive' is claimed twice")
                        .hasMessageContaining("PersistentRunnables bean 'runnables'"));
    }

    @ErrandTask("not-a-handler")
    static class NotAHandler {}

    @Test
    void anAnnotatedBeanThatIsNoHandlerStopsStartUp() {
        runner.withBean("notAHandler", NotAHandler.class).run(context -> assertThat(context)
                .getFailure()
                .rootCause()
                .hasMessageContaining("Task kind 'not-a-handler'")
                .hasMessageContaining("does not implement dev.errand.task.TaskHandler"));
    }

    @ErrandTask(value = "bad-delay", retry = ErrandTask.Retry.FIXED, retryDelay = "soon")
    static class BadDelay implements TaskHandler<Sms> {
        @Override
        public void handle(Sms payload, TaskContext context) {}
    }

    @ErrandTask(value = "bad-attempts", maxAttempts = 5000)
    static class BadAttempts implements TaskHandler<Sms> {
        @Override
        public void handle(Sms payload, TaskContext context) {}
    }

    @ErrandTask(value = "bad-limit", concurrencyLimitPerKey = -1)
    static class BadLimit implements TaskHandler<Sms> {
        @Override
        public void handle(Sms payload, TaskContext context) {}
    }

    @ErrandTask(value = "bad-group", mode = ExecutionMode.NON_TRANSACTIONAL, groupCommit = 20)
    static class BadGroup implements TaskHandler<Sms> {
        @Override
        public void handle(Sms payload, TaskContext context) {}
    }

    @Test
    void invalidAnnotationOptionsStopStartUpNamingTheOption() {
        runner.withBean("badLimit", BadLimit.class).run(context -> assertThat(context)
                .getFailure()
                .rootCause()
                .hasMessageContaining("Task kind 'bad-limit'")
                .hasMessageContaining(
                        "concurrencyLimitPerKey of kind 'bad-limit' must be between 1 and 10000, got -1"));
        runner.withBean("badGroup", BadGroup.class).run(context -> assertThat(context)
                .getFailure()
                .rootCause()
                .hasMessageContaining("Kind 'bad-group' sets groupCommit(20) but runs NON_TRANSACTIONAL"));
        runner.withBean("badDelay", BadDelay.class).run(context -> assertThat(context)
                .getFailure()
                .rootCause()
                .hasMessageContaining("Task kind 'bad-delay'")
                .hasMessageContaining("retryDelay \"soon\" is not a duration"));
        runner.withBean("badAttempts", BadAttempts.class).run(context -> assertThat(context)
                .getFailure()
                .rootCause()
                .hasMessageContaining("Task kind 'bad-attempts'")
                .hasMessageContaining("maxAttempts must be between 1 and 1000, got 5000"));
    }

    @SuppressWarnings("rawtypes")
    @ErrandTask("raw")
    static class RawHandler implements TaskHandler {
        @Override
        public void handle(Object payload, TaskContext context) {}
    }

    @SuppressWarnings("rawtypes")
    @ErrandTask(value = "raw", payload = Sms.class)
    static class RawHandlerWithPayload implements TaskHandler {
        @Override
        public void handle(Object payload, TaskContext context) {}
    }

    @Test
    void aPayloadTypeThatCannotBeReadMustBeDeclared() {
        runner.withBean("raw", RawHandler.class).run(context -> assertThat(context)
                .getFailure()
                .rootCause()
                .hasMessageContaining("payload type cannot be read")
                .hasMessageContaining("payload = YourPayload.class"));
        runner.withBean("raw", RawHandlerWithPayload.class).run(context -> assertThat(context.getBean(ErrandTasks.class)
                        .find("raw")
                        .orElseThrow()
                        .definition()
                        .payloadType())
                .isEqualTo(Sms.class));
    }

    /** A handler that enqueues follow-up tasks: it depends on the client, which depends on the node. */
    @ErrandTask("follow-up")
    static class FollowUp implements TaskHandler<Sms> {
        final ErrandClient client;

        FollowUp(ErrandClient client) {
            this.client = client;
        }

        @Override
        public void handle(Sms payload, TaskContext context) {
            client.enqueue("send-sms", payload);
        }
    }

    /** A handler class without the annotation; its @Bean method carries it. */
    static class PlainHandler implements TaskHandler<Sms> {
        @Override
        public void handle(Sms payload, TaskContext context) {}
    }

    @Configuration(proxyBeanMethods = false)
    static class AnnotatedBeanMethod {
        @Bean
        @ErrandTask("from-bean-method")
        PlainHandler fromBeanMethod() {
            return new PlainHandler();
        }
    }

    @Test
    void handlersMayDependOnTheClientAndMayBeDeclaredWithBeanMethods() {
        runner.withBean("followUp", FollowUp.class)
                .withUserConfiguration(AnnotatedBeanMethod.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(FollowUp.class).client.errand()).isSameAs(context.getBean(Errand.class));
                    assertThat(context.getBean(ErrandTasks.class).definitions())
                            .extracting(TaskDefinition::kind)
                            .containsExactlyInAnyOrder("follow-up", "from-bean-method");
                    assertThat(context.getBean(ErrandTasks.class)
                                    .find("from-bean-method")
                                    .orElseThrow()
                                    .definition()
                                    .payloadType())
                            .isEqualTo(Sms.class);
                });
    }
}
