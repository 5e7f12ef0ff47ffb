package dev.errand.examples.jpa;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A pretend SMS gateway: a send takes about {@code send-time}, fails {@code failure-rate} of the time at
 * random, and always fails for numbers ending in {@code 0000}, which it does not know.
 */
public class FlakyGateway {

    /** The errors of random failures. */
    static final List<String> TRANSIENT_ERRORS =
            List.of("carrier timed out", "wrong time picked for send", "connection reset by gateway");

    private final double failureRate;
    private final long sendMicros;

    /** Creates the gateway. */
    public FlakyGateway(JpaSmsDemoProperties properties) {
        this.failureRate = properties.getFailureRate();
        this.sendMicros = Math.max(1, properties.getSendTime().toNanos() / 1_000);
    }

    /**
     * Sends a message.
     *
     * @throws GatewayException when the send fails
     */
    public void send(SmsMessage message) throws InterruptedException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        TimeUnit.MICROSECONDS.sleep(random.nextLong(sendMicros / 2, sendMicros * 3 / 2 + 1));
        if (message.toAddress().endsWith("0000")) {
            throw new GatewayException("unknown subscriber " + message.toAddress());
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
