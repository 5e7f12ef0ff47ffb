package dev.errand.unit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.enqueue.TaskRequest;
import dev.errand.task.ContinueOptions;
import dev.errand.task.EnqueueOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A request ({@code TaskRequest.Builder}) and a continuation ({@code ContinueOptions.Builder}) take their common
 * options through one set of setters, {@link EnqueueOptions.Builder}: the same checks with the same messages,
 * the same values collected, and the request's own defaults where an option is unset.
 */
class EnqueueOptionsTest {

    private static final Instant LATER = Instant.now().plus(Duration.ofDays(2));

    static Stream<Supplier<EnqueueOptions.Builder<?>>> builders() {
        return Stream.of(() -> TaskRequest.builder("k", "p"), ContinueOptions::builder);
    }

    @ParameterizedTest
    @MethodSource("builders")
    void bothBuildersRefuseBadOptionsWithTheSameMessages(Supplier<EnqueueOptions.Builder<?>> builder) {
        refused(builder, b -> b.delay(null), "delay");
        refused(builder, b -> b.delay(Duration.ofSeconds(-1)), "delay");
        refused(builder, b -> b.runAt(null), "runAt must not be null");
        refused(builder, b -> b.runAt(Instant.parse("+10000-01-01T00:00:00Z")), "runAt must be between");
        refused(builder, b -> b.priority(0), "priority must be between 1 (runs first) and 10");
        refused(builder, b -> b.priority(11), "priority must be between 1 (runs first) and 10");
        refused(builder, b -> b.queue(" "), "queue");
        refused(builder, b -> b.maxAttempts(0), "maxAttempts must be between 1 and 1000");
        refused(builder, b -> b.node(""), "Pinned node id");
        refused(builder, b -> b.nodeGroup("a,b"), "comma");
        refused(builder, b -> b.uniqueKey(" k"), "uniqueKey");
        refused(builder, b -> b.expiresIn(Duration.ZERO), "positive");
    }

    @Test
    void aContinuationsRunTimeOutsideTheStoredYearsIsRefusedWhenItIsSet() {
        // It used to pass here and fail only in continueWith, inside the handler.
        assertThatThrownBy(() -> ContinueOptions.builder().runAt(Instant.parse("0999-12-31T23:59:59Z")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("runAt must be between 1000-01-01T00:00:00Z and 9999-12-31T23:59:59Z");
    }

    @Test
    void bothBuildersCollectTheSameOptions() {
        TaskRequest request = everyOption(TaskRequest.builder("k", "p")).build();
        ContinueOptions next = everyOption(ContinueOptions.builder()).build();
        assertThat(values(request.options())).isEqualTo(values(next.options()));
        assertThat(List.of(
                        next.delay(),
                        next.runAt(),
                        next.priority(),
                        next.queue(),
                        next.maxAttempts(),
                        next.node(),
                        next.nodeGroup(),
                        next.uniqueKey(),
                        next.expiresIn()))
                .isEqualTo(values(next.options()).subList(0, 9));
        assertThat(request.delay()).isEqualTo(Duration.ofMinutes(3));
        assertThat(request.runAt()).isNull();
        assertThat(request.priority()).isEqualTo(2);
        assertThat(request.queue()).isEqualTo("q");
        assertThat(request.maxAttempts()).isEqualTo(7);
        assertThat(request.node()).isEqualTo("n");
        assertThat(request.nodeGroup()).isEqualTo("g");
        assertThat(request.uniqueKey()).isEqualTo("u");
        assertThat(request.expiresIn()).isEqualTo(Duration.ofHours(1));
        assertThat(request.expiresAt()).isNull();
    }

    @Test
    void unsetOptionsAreEmptyAndARequestFillsItsDefaults() {
        assertThat(values(ContinueOptions.builder().build().options()))
                .allMatch(value -> value.equals(Optional.empty()) || value.equals(OptionalInt.empty()));
        TaskRequest plain = TaskRequest.of("k", "p");
        assertThat(plain.priority()).isEqualTo(EnqueueOptions.DEFAULT_PRIORITY).isEqualTo(5);
        assertThat(plain.delay()).isEqualTo(Duration.ZERO);
        assertThat(Arrays.asList(
                        plain.runAt(),
                        plain.queue(),
                        plain.maxAttempts(),
                        plain.node(),
                        plain.nodeGroup(),
                        plain.uniqueKey(),
                        plain.expiresAt(),
                        plain.expiresIn()))
                .containsOnlyNulls();
    }

    @Test
    void theRunTimeAndTheDelayReplaceEachOtherAndSoDoTheTwoDeadlines() {
        Instant at = Instant.parse("2030-01-01T00:00:00Z");
        TaskRequest delayed = TaskRequest.builder("k", "p")
                .runAt(at)
                .delay(Duration.ofMinutes(1))
                .build();
        assertThat(delayed.runAt()).isNull();
        assertThat(delayed.delay()).isEqualTo(Duration.ofMinutes(1));
        TaskRequest timed = TaskRequest.builder("k", "p")
                .delay(Duration.ofMinutes(1))
                .runAt(at)
                .build();
        assertThat(timed.runAt()).isEqualTo(at);
        assertThat(timed.delay()).isEqualTo(Duration.ZERO);
        TaskRequest relative = TaskRequest.builder("k", "p")
                .expiresAt(LATER)
                .expiresIn(Duration.ofHours(1))
                .build();
        assertThat(relative.expiresAt()).isNull();
        assertThat(relative.expiresIn()).isEqualTo(Duration.ofHours(1));
        TaskRequest absolute = TaskRequest.builder("k", "p")
                .expiresIn(Duration.ofHours(1))
                .expiresAt(LATER)
                .build();
        assertThat(absolute.expiresAt()).isEqualTo(LATER);
        assertThat(absolute.expiresIn()).isNull();
        assertThat(TaskRequest.requireRunAt(at)).isEqualTo(EnqueueOptions.requireRunAt(at));
        assertThat(TaskRequest.LATEST_RUN_AT).isEqualTo(EnqueueOptions.LATEST_RUN_AT);
    }

    private static <B extends EnqueueOptions.Builder<B>> B everyOption(B builder) {
        return builder.runAt(Instant.parse("2030-01-01T00:00:00Z"))
                .delay(Duration.ofMinutes(3))
                .priority(2)
                .queue("q")
                .maxAttempts(7)
                .node("n")
                .nodeGroup("g")
                .uniqueKey("u")
                .expiresIn(Duration.ofHours(1));
    }

    private static List<Object> values(EnqueueOptions options) {
        return List.of(
                options.delay(),
                options.runAt(),
                options.priority(),
                options.queue(),
                options.maxAttempts(),
                options.node(),
                options.nodeGroup(),
                options.uniqueKey(),
                options.expiresIn(),
                options.expiresAt());
    }

    private static void refused(
            Supplier<EnqueueOptions.Builder<?>> builder, Consumer<EnqueueOptions.Builder<?>> call, String message) {
        assertThatThrownBy(() -> call.accept(builder.get()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }
}
