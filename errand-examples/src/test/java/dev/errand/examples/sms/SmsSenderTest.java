package dev.errand.examples.sms;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.task.FailureCause;
import org.junit.jupiter.api.Test;

/** The reason that {@link SmsSender#onFailure} writes on a message comes from the structured cause, not from text. */
class SmsSenderTest {

    @Test
    void aGatewayErrorIsRecordedAsTheExceptionsMessageAlone() {
        FailureCause cause = new FailureCause.HandlerFailed(
                FlakySmsGateway.GatewayException.class.getName(), "unknown subscriber +38591000100", null);
        assertThat(SmsSender.reason(cause)).isEqualTo("unknown subscriber +38591000100");
    }

    @Test
    void anExceptionWithoutMessageIsRecordedByItsType() {
        FailureCause cause = new FailureCause.HandlerFailed("java.lang.NullPointerException", null, null);
        assertThat(SmsSender.reason(cause)).isEqualTo("java.lang.NullPointerException");
    }

    @Test
    void otherCausesAreRecordedByErrandsDescription() {
        FailureCause lost = new FailureCause.WorkerLost("node-7");
        assertThat(SmsSender.reason(lost)).isEqualTo(lost.describe()).contains("node-7");
    }
}
