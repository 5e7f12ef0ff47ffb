package dev.errand.examples.sms;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Component;

/**
 * A pretend SMS gateway: it "sends" by waiting about {@code sms.send-time}, fails {@code sms.failure-rate}
 * of the sends at random, and always fails numbers ending in {@code 00}, which it does not know.
 */
@Component
public class FlakySmsGateway {

    /** The errors of random failures. */
    static final List<String> TRANSIENT_ERRORS =
            List.of("carrier timed out", "carrier rate limit reached", "connection reset by gateway");

    private final double failureRate;
    private final long sendMicros;

    /** Creates the gateway. */
    public FlakySmsGateway(SmsDemoProperties properties) {
        this.failureRate = properties.getFailureRate();
        this.sendMicros = Math.max(1, properties.getSendTime().toNanos() / 1000);
    }

    /**
     * Sends a message.
     *
     * @throws GatewayException when the send fails
     */
    public void send(String recipient, String body) throws InterruptedException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        // Between half and one and a half of sms.send-time.
        TimeUnit.MICROSECONDS.sleep(random.nextLong(sendMicros / 2, sendMicros * 3 / 2 + 1));
        if (recipient.endsWith("00")) {
            throw new GatewayException("unknown subscriber " + recipient);
        }
        if (random.nextDouble() < failureRate) {
            throw new GatewayException(TRANSIENT_ERRORS.get(random.nextInt(TRANSIENT_ERRORS.size())));
        }
    }

    /** A send that failed. */
    public static final class GatewayException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        GatewayException(String message) {
            super(message);
        }
    }
}
