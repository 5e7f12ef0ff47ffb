package dev.errand.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import java.time.Duration;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.validation.BeanPropertyBindingResult;

/**
 * The ranges that {@link ErrandProperties} reports must be the ranges {@link ErrandBuilder} enforces: the
 * core is changed in parallel, and a drift would let a property pass binding and fail later, or the reverse.
 */
class ErrandPropertiesRangeTest {

    private static final Duration NANO = Duration.ofNanos(1);

    static Stream<Arguments> durationRanges() {
        return Stream.of(
                Arguments.of("pollInterval", ErrandProperties.POLL_INTERVAL_MIN, ErrandProperties.POLL_INTERVAL_MAX,
                        (BiConsumer<ErrandBuilder, Duration>) ErrandBuilder::pollInterval),
                Arguments.of("leaseDuration", ErrandProperties.LEASE_MIN, ErrandProperties.LEASE_MAX,
                        (BiConsumer<ErrandBuilder, Duration>) ErrandBuilder::leaseDuration),
                Arguments.of("heartbeatInterval", ErrandProperties.HEARTBEAT_MIN, ErrandProperties.HEARTBEAT_MAX,
                        (BiConsumer<ErrandBuilder, Duration>) ErrandBuilder::heartbeatInterval),
                Arguments.of("completionFlushInterval", ErrandProperties.FLUSH_MIN, ErrandProperties.FLUSH_MAX,
                        (BiConsumer<ErrandBuilder, Duration>) ErrandBuilder::completionFlushInterval),
                Arguments.of("rescueInterval", ErrandProperties.RESCUE_MIN, ErrandProperties.RESCUE_MAX,
                        (BiConsumer<ErrandBuilder, Duration>) ErrandBuilder::rescueInterval),
                Arguments.of("shutdownTimeout", ErrandProperties.SHUTDOWN_MIN, ErrandProperties.SHUTDOWN_MAX,
                        (BiConsumer<ErrandBuilder, Duration>) ErrandBuilder::shutdownTimeout),
                Arguments.of("succeededRetention", ErrandProperties.RETENTION_MIN, ErrandProperties.RETENTION_MAX,
                        (BiConsumer<ErrandBuilder, Duration>) ErrandBuilder::succeededRetention),
                Arguments.of("pruneInterval", ErrandProperties.PRUNE_MIN, ErrandProperties.PRUNE_MAX,
                        (BiConsumer<ErrandBuilder, Duration>) ErrandBuilder::pruneInterval),
                Arguments.of("unknownKindRetryDelay", ErrandProperties.UNKNOWN_KIND_MIN,
                        ErrandProperties.UNKNOWN_KIND_MAX,
                        (BiConsumer<ErrandBuilder, Duration>) ErrandBuilder::unknownKindRetryDelay));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("durationRanges")
    void durationRangesMatchTheBuilder(String name, Duration min, Duration max,
            BiConsumer<ErrandBuilder, Duration> setter) {
        assertThatCode(() -> setter.accept(builder(), min)).doesNotThrowAnyException();
        assertThatCode(() -> setter.accept(builder(), max)).doesNotThrowAnyException();
        assertThatThrownBy(() -> setter.accept(builder(), min.minus(NANO))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> setter.accept(builder(), max.plus(NANO))).isInstanceOf(IllegalArgumentException.class);
        assertThat(name, min.minus(NANO), false);
        assertThat(name, max.plus(NANO), false);
        assertThat(name, min, true);
    }

    static Stream<Arguments> intRanges() {
        return Stream.of(
                Arguments.of("claimBatchSize", ErrandProperties.CLAIM_BATCH_MAX,
                        (BiConsumer<ErrandBuilder, Integer>) ErrandBuilder::claimBatchSize),
                Arguments.of("completionBatchSize", ErrandProperties.COMPLETION_BATCH_MAX,
                        (BiConsumer<ErrandBuilder, Integer>) ErrandBuilder::completionBatchSize),
                Arguments.of("defaultMaxAttempts", ErrandProperties.ATTEMPTS_MAX,
                        (BiConsumer<ErrandBuilder, Integer>) ErrandBuilder::defaultMaxAttempts),
                Arguments.of("concurrency", ErrandProperties.CONCURRENCY_MAX,
                        (BiConsumer<ErrandBuilder, Integer>) (b, n) -> b.queue("q", n)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("intRanges")
    void numberRangesMatchTheBuilder(String name, int max, BiConsumer<ErrandBuilder, Integer> setter) {
        assertThatCode(() -> setter.accept(builder(), 1)).doesNotThrowAnyException();
        assertThatCode(() -> setter.accept(builder(), max)).doesNotThrowAnyException();
        assertThatThrownBy(() -> setter.accept(builder(), 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> setter.accept(builder(), max + 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void tablePrefixRuleMatchesTheBuilder() {
        for (String accepted : new String[] {"errand_", "_x", "a".repeat(40)}) {
            assertThatCode(() -> builder().tablePrefix(accepted)).doesNotThrowAnyException();
            ErrandProperties properties = new ErrandProperties();
            properties.setTablePrefix(accepted);
            org.assertj.core.api.Assertions.assertThat(errors(properties).hasErrors()).as(accepted).isFalse();
        }
        for (String refused : new String[] {"1x", "bad-prefix", "a".repeat(41), ""}) {
            assertThatThrownBy(() -> builder().tablePrefix(refused)).isInstanceOf(IllegalArgumentException.class);
            ErrandProperties properties = new ErrandProperties();
            properties.setTablePrefix(refused);
            org.assertj.core.api.Assertions.assertThat(errors(properties).hasErrors()).as(refused).isTrue();
        }
    }

    @Test
    void defaultsAreValidAndMatchTheBuilder() {
        ErrandProperties defaults = new ErrandProperties();
        org.assertj.core.api.Assertions.assertThat(errors(defaults).hasErrors()).isFalse();
        ErrandBuilder builder = builder();
        defaults.applyTo(builder);
        assertThatCode(builder::toString).doesNotThrowAnyException();
    }

    private static void assertThat(String field, Duration value, boolean valid) {
        ErrandProperties properties = new ErrandProperties();
        new org.springframework.beans.BeanWrapperImpl(properties).setPropertyValue(field, value);
        if (field.equals("heartbeatInterval") || field.equals("leaseDuration")) {
            // Keep the lease at least twice the heartbeat whatever the value under test.
            if (field.equals("heartbeatInterval")) {
                properties.setLeaseDuration(ErrandProperties.LEASE_MAX);
            } else {
                properties.setHeartbeatInterval(ErrandProperties.HEARTBEAT_MIN);
            }
        }
        org.assertj.core.api.Assertions.assertThat(errors(properties).hasErrors()).as(field + "=" + value)
                .isEqualTo(!valid);
    }

    private static BeanPropertyBindingResult errors(ErrandProperties properties) {
        BeanPropertyBindingResult errors = new BeanPropertyBindingResult(properties, "errand");
        properties.validate(properties, errors);
        return errors;
    }

    private static ErrandBuilder builder() {
        // The builder checks arguments without touching the database.
        return Errand.builder(new SimpleDriverDataSource());
    }
}
