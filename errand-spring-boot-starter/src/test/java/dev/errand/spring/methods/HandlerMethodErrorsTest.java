package dev.errand.spring.methods;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.spring.ErrandSchedule;
import dev.errand.spring.ErrandTask;
import dev.errand.spring.ErrandTasks;
import dev.errand.spring.autoconfigure.ErrandAutoConfiguration;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskHandler;
import java.sql.Connection;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Each bad {@code @ErrandTask} method stops start-up with a message that names the bean, the method and the fix. */
class HandlerMethodErrorsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    DataSourceTransactionManagerAutoConfiguration.class,
                    ErrandAutoConfiguration.class))
            .withPropertyValues(
                    "spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID(), "errand.processing-enabled=false");

    record Invoice(String number) {}

    /** Jackson has no way to build an interface. */
    interface Shape {}

    /** Neither a record nor a class with a constructor Jackson can call. */
    static final class NoCreator {
        NoCreator(String a, String b) {}
    }

    static class Billing {
        @ErrandTask(kind = "send-invoice")
        public void send(Invoice invoice) {}
    }

    static class OtherBilling {
        @ErrandTask(kind = "send-invoice")
        public void sendToo(Invoice invoice, TaskContext context) {}
    }

    @ErrandTask("send-invoice")
    static class InvoiceHandler implements TaskHandler<Invoice> {
        @Override
        public void handle(Invoice payload, TaskContext context) {}
    }

    static class NoPayload {
        @ErrandTask(kind = "k")
        public void run(TaskContext context) {}
    }

    static class TwoPayloads {
        @ErrandTask(kind = "k")
        public void run(Invoice invoice, String note) {}
    }

    static class TwoContexts {
        @ErrandTask(kind = "k")
        public void run(Invoice invoice, TaskContext a, TaskContext b) {}
    }

    static class Primitive {
        @ErrandTask(kind = "k")
        public void run(long cents) {}
    }

    static class Generic {
        @ErrandTask(kind = "k")
        public void run(List<Invoice> invoices) {}
    }

    static class TakesConnection {
        @ErrandTask(kind = "k")
        public void run(Invoice invoice, Connection connection) {}
    }

    static class Static {
        @ErrandTask(kind = "k")
        public static void run(Invoice invoice) {}
    }

    static class Private {
        @ErrandTask(kind = "k")
        private void run(Invoice invoice) {}
    }

    static class ReturnsValue {
        @ErrandTask(kind = "k")
        public String run(Invoice invoice) {
            return "done";
        }
    }

    static class InterfacePayload {
        @ErrandTask(kind = "k")
        public void run(Shape shape) {}
    }

    static class NoCreatorPayload {
        @ErrandTask(kind = "k")
        public void run(NoCreator value) {}
    }

    static class NoKind {
        @ErrandTask(maxAttempts = 3)
        public void run(Invoice invoice) {}
    }

    static class PayloadAttribute {
        @ErrandTask(kind = "k", payload = Invoice.class)
        public void run(Invoice invoice) {}
    }

    static class BadOption {
        @ErrandTask(kind = "k", retry = ErrandTask.Retry.FIXED, retryDelay = "soon")
        public void run(Invoice invoice) {}
    }

    static class ScheduleWithoutTask {
        @ErrandSchedule(every = "1h")
        public void run(Invoice invoice) {}
    }

    static Stream<Arguments> badMethods() {
        return Stream.of(
                Arguments.of(NoPayload.class, "run(TaskContext)", "it has no payload parameter", "Void for a kind"),
                Arguments.of(
                        TwoPayloads.class,
                        "run(Invoice, String)",
                        "2 payload parameters (Invoice and String)",
                        "put the values in one record"),
                Arguments.of(
                        TwoContexts.class,
                        "run(Invoice, TaskContext, TaskContext)",
                        "takes the TaskContext twice",
                        "Keep one TaskContext"),
                Arguments.of(Primitive.class, "run(long)", "primitive long", "Use its wrapper class (Long)"),
                Arguments.of(Generic.class, "run(List)", "generic type java.util.List<", "Wrap it in a record"),
                Arguments.of(
                        TakesConnection.class,
                        "run(Invoice, Connection)",
                        "java.sql.Connection",
                        "context.connection()"),
                Arguments.of(Static.class, "run(Invoice)", "it is static", "instance method"),
                Arguments.of(Private.class, "run(Invoice)", "it is private", "Make it public"),
                Arguments.of(ReturnsValue.class, "run(Invoice)", "it returns String", "Return void"),
                Arguments.of(
                        InterfacePayload.class,
                        "run(Shape)",
                        "Jackson cannot construct its payload type " + Shape.class.getName(),
                        "not an interface or abstract class"),
                Arguments.of(
                        NoCreatorPayload.class,
                        "run(NoCreator)",
                        "Jackson cannot construct its payload type " + NoCreator.class.getName(),
                        "a record or a class with a no-argument constructor"),
                Arguments.of(NoKind.class, "run(Invoice)", "Task kind '' of", "@ErrandTask(kind = \"...\")"),
                Arguments.of(
                        PayloadAttribute.class,
                        "run(Invoice)",
                        "it sets payload = Invoice",
                        "Remove the payload attribute"),
                Arguments.of(
                        BadOption.class,
                        "run(Invoice)",
                        "retryDelay \"soon\" is not a duration",
                        "Fix the option in @ErrandTask"),
                Arguments.of(
                        ScheduleWithoutTask.class,
                        ".run of bean",
                        "has @ErrandSchedule but no @ErrandTask",
                        "Put @ErrandTask(kind = \"...\") on the method too"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badMethods")
    void aBadMethodStopsStartUpWithWhatToFix(Class<?> beanType, String method, String problem, String action) {
        runner.withBean("billingBean", beanType).run(context -> assertThat(context)
                .getFailure()
                .rootCause()
                .hasMessageContaining("bean 'billingBean'")
                .hasMessageContaining(beanType.getSimpleName())
                .hasMessageContaining(method)
                .hasMessageContaining(problem)
                .hasMessageContaining(action));
    }

    @Test
    void twoMethodsClaimingOneKindStopStartUp() {
        runner.withBean("billing", Billing.class)
                .withBean("otherBilling", OtherBilling.class)
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("Task kind 'send-invoice' is claimed twice")
                        .hasMessageContaining("@ErrandTask method send(Invoice) of bean 'billing'")
                        .hasMessageContaining("@ErrandTask method sendToo(Invoice, TaskContext) of bean 'otherBilling'")
                        .hasMessageContaining("Each kind needs exactly one handler"));
    }

    @Test
    void aMethodAndAHandlerClassClaimingOneKindStopStartUp() {
        runner.withBean("billing", Billing.class)
                .withBean("invoiceHandler", InvoiceHandler.class)
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("Task kind 'send-invoice' is claimed twice")
                        .hasMessageContaining("@ErrandTask bean 'invoiceHandler'")
                        .hasMessageContaining("@ErrandTask method send(Invoice) of bean 'billing'"));
    }

    static class Scheduled {
        @ErrandTask(kind = "nightly-invoices")
        @ErrandSchedule(cron = "0 2 * * *")
        public void run(Void nothing) {}
    }

    @Test
    void aScheduleBesideAMethodIsDeclaredForItsKind() {
        runner.withBean("scheduled", Scheduled.class).run(context -> {
            assertThat(context).hasNotFailed();
            ErrandTasks tasks = context.getBean(ErrandTasks.class);
            assertThat(tasks.find("nightly-invoices").orElseThrow().definition().payloadType())
                    .isEqualTo(Void.class);
            assertThat(tasks.schedules()).singleElement().satisfies(schedule -> {
                assertThat(schedule.name()).isEqualTo("nightly-invoices");
                assertThat(schedule.kind()).isEqualTo("nightly-invoices");
            });
        });
    }
}
