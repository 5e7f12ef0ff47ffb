package dev.errand.examples.plain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.task.FailureCause;
import org.junit.jupiter.api.Test;

/** What the plain demo's failure callback writes into {@code demo_failure.error}. */
class DemoTasksTest {

    @Test
    void aHandlerFailureIsItsSimpleTypeAndMessageWithoutStackTrace() {
        FailureCause cause = new FailureCause.HandlerFailed(
                "java.io.IOException",
                "Partner acme answered 503 for order 50004",
                new java.io.IOException("Partner acme answered 503"));
        assertThat(DemoTasks.reason(cause)).isEqualTo("IOException: Partner acme answered 503 for order 50004");
    }

    @Test
    void otherCausesUseErrandsDescription() {
        FailureCause lost = new FailureCause.WorkerLost("node-7");
        assertThat(DemoTasks.reason(lost)).isEqualTo(lost.describe());
    }

    @Test
    void theKindsCarryTheirNamesAndPayloadTypes() {
        assertThat(DemoTasks.SEND_REPORT.name()).isEqualTo("send-report");
        assertThat(DemoTasks.SEND_REPORT.payloadType()).isEqualTo(DemoTasks.ReportRequest.class);
        assertThat(DemoTasks.NOTIFY_PARTNER.name()).isEqualTo("notify-partner");
        assertThat(DemoTasks.NOTIFY_PARTNER.payloadType()).isEqualTo(DemoTasks.PartnerNotice.class);
    }
}
