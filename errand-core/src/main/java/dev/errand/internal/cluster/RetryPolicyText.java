package dev.errand.internal.cluster;

import dev.errand.retry.DelayList;
import dev.errand.retry.ExponentialBackoff;
import dev.errand.retry.FixedDelay;
import dev.errand.retry.RetryPolicy;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The stored form of the built-in retry policies, for the {@code kind_control} table: {@code fixed PT30S},
 * {@code delays PT10S,PT1M} and {@code exponential PT1S PT1H 2.0 0.2} (initial, cap, factor, jitter). ISO-8601
 * durations, so that the rows read well in SQL.
 */
final class RetryPolicyText {

    private RetryPolicyText() {}

    /** The stored form of a built-in policy; {@code KindChange} lets no other in. */
    static String write(RetryPolicy policy) {
        if (policy instanceof FixedDelay fixed) {
            return "fixed " + fixed.delay();
        }
        if (policy instanceof DelayList list) {
            return "delays " + list.delays().stream().map(Duration::toString).collect(Collectors.joining(","));
        }
        if (policy instanceof ExponentialBackoff backoff) {
            return String.format(
                    Locale.ROOT,
                    "exponential %s %s %s %s",
                    backoff.initial(),
                    backoff.cap(),
                    Double.toString(backoff.factor()),
                    Double.toString(backoff.jitter()));
        }
        throw new IllegalArgumentException("Only the built-in retry policies can be stored, got " + policy);
    }

    /**
     * Reads a stored policy.
     *
     * @throws IllegalArgumentException naming the text, if it is not one this class writes (a row edited by hand)
     */
    static RetryPolicy read(String text) {
        try {
            String[] parts = text.strip().split(" ");
            return switch (parts[0]) {
                case "fixed" -> RetryPolicy.fixed(Duration.parse(parts[1]));
                case "delays" ->
                    new DelayList(Arrays.stream(parts[1].split(","))
                            .map(Duration::parse)
                            .toList());
                case "exponential" ->
                    RetryPolicy.exponential(Duration.parse(parts[1]), Duration.parse(parts[2]))
                            .withFactor(Double.parseDouble(parts[3]))
                            .withJitter(Double.parseDouble(parts[4]));
                default -> throw new IllegalArgumentException("unknown policy '" + parts[0] + "'");
            };
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "A kind_control row holds a retry policy that cannot be read: '" + text
                            + "' (" + e.getMessage() + "); write it as 'fixed PT30S', 'delays PT10S,PT1M' or"
                            + " 'exponential PT1S PT1H 2.0 0.2', or reset the kind with ClusterAdmin.resetKind",
                    e);
        }
    }
}
