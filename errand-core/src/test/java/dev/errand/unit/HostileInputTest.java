package dev.errand.unit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.Errand;
import dev.errand.admin.TaskQuery;
import dev.errand.enqueue.TaskRequest;
import dev.errand.internal.store.Micros;
import dev.errand.retry.Delays;
import dev.errand.retry.RetryPolicy;
import dev.errand.spi.PayloadCodec;
import dev.errand.task.RetryLater;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskKind;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/**
 * Input that used to get past the checks and break later: control characters in names, delays and run
 * times that overflow the databases' time arithmetic. Each is refused at once, with a message that
 * says what is accepted.
 */
class HostileInputTest {

    @Test
    void namesWithControlCharactersAreRefusedEverywhere() {
        String nul = "send\u0000mail";
        assertThatThrownBy(() -> TaskKind.of(nul, String.class))
                .hasMessageContaining("control characters")
                .hasMessageContaining("U+0000");
        assertThatThrownBy(() -> TaskRequest.of(nul, 1)).hasMessageContaining("control characters");
        assertThatThrownBy(() -> TaskRequest.builder("k", 1).uniqueKey("key\u0000"))
                .hasMessageContaining("uniqueKey");
        assertThatThrownBy(() -> TaskRequest.builder("k", 1).queue("q\u0000")).hasMessageContaining("queue");
        assertThatThrownBy(() -> TaskRequest.builder("k", 1).queue("line\nbreak"))
                .hasMessageContaining("U+000A");
        assertThatThrownBy(() -> Errand.builder(new JdbcDataSource()).queue("mail\u0000", 1))
                .hasMessageContaining("Queue name")
                .hasMessageContaining("control characters");
        assertThatThrownBy(() -> Errand.builder(new JdbcDataSource()).nodeId("node\u0000"))
                .hasMessageContaining("nodeId");
        assertThatThrownBy(() -> TaskQuery.builder().kind("k\u0000")).hasMessageContaining("kind filter");
    }

    @Test
    void delaysLongerThanTheDatabasesCanAddAreRefused() {
        Duration forever = ChronoUnit.FOREVER.getDuration();
        assertThatThrownBy(() -> TaskRequest.builder("k", 1).delay(forever)).hasMessageContaining("36500 days");
        assertThatThrownBy(() -> TaskRequest.builder("k", 1).delay(Duration.ofDays(365_000)))
                .hasMessageContaining("at most");
        assertThat(TaskRequest.builder("k", 1).delay(Delays.MAX).build().delay())
                .isEqualTo(Delays.MAX);
        assertThatThrownBy(() -> RetryLater.after(forever)).hasMessageContaining("36500 days");
        assertThatThrownBy(() -> RetryPolicy.fixed(forever)).hasMessageContaining("36500 days");
        assertThatThrownBy(() -> RetryPolicy.delays(Duration.ofSeconds(1), forever))
                .hasMessageContaining("36500 days");
        assertThatThrownBy(() -> RetryPolicy.exponential(Duration.ofSeconds(1), forever))
                .hasMessageContaining("36500 days");
    }

    @Test
    void runTimesOutsideWhatEveryDatabaseStoresAreRefused() {
        for (Instant bad : new Instant[] {
            Instant.MAX, Instant.MIN, Instant.parse("+10000-01-01T00:00:00Z"), Instant.parse("0999-12-31T23:59:59Z")
        }) {
            assertThatThrownBy(() -> TaskRequest.builder("k", 1).runAt(bad))
                    .as(bad.toString())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("between 1000-01-01");
        }
        assertThat(TaskRequest.builder("k", 1)
                        .runAt(TaskRequest.LATEST_RUN_AT)
                        .build()
                        .runAt())
                .isEqualTo(TaskRequest.LATEST_RUN_AT);
    }

    @Test
    void microsecondArithmeticSaturatesInsteadOfWrappingIntoThePast() {
        assertThat(Micros.of(ChronoUnit.FOREVER.getDuration())).isEqualTo(Long.MAX_VALUE);
        assertThat(Micros.of(Duration.ofSeconds(1))).isEqualTo(1_000_000L);
        assertThat(Micros.plus(Long.MAX_VALUE - 1, 10)).isEqualTo(Long.MAX_VALUE);
        assertThat(Micros.plus(Long.MIN_VALUE + 1, -10)).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void aDelayListSetsTheAttemptsItCovers() {
        TaskDefinition<Integer> listed = TaskDefinition.builder("listed", Integer.class, (n, c) -> {})
                .retryPolicy(RetryPolicy.delays(Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(30)))
                .build();
        assertThat(listed.maxAttempts()).isEqualTo(4);
        TaskDefinition<Integer> explicit = TaskDefinition.builder("explicit", Integer.class, (n, c) -> {})
                .retryPolicy(RetryPolicy.delays(Duration.ofSeconds(10)))
                .maxAttempts(9)
                .build();
        assertThat(explicit.maxAttempts()).isEqualTo(9);
        TaskDefinition<Integer> fixed = TaskDefinition.builder("fixed", Integer.class, (n, c) -> {})
                .retryPolicy(RetryPolicy.fixed(Duration.ofSeconds(1)))
                .build();
        assertThat(fixed.maxAttempts()).isNull();
    }

    @Test
    void typedKindsTieTheRequestToThePayloadType() {
        TaskKind<Integer> count = TaskKind.of("count", Integer.class);
        TaskRequest request = TaskRequest.of(count, 42);
        assertThat(request.kind()).isEqualTo("count");
        assertThat(request.payloadType()).isEqualTo(Integer.class);
        assertThat(TaskDefinition.builder(count, (n, ctx) -> {}).build().taskKind())
                .isEqualTo(count);
        assertThatThrownBy(() -> TaskRequest.of((TaskKind<Integer>) null, 1)).hasMessageContaining("TaskKind.of");
        assertThatThrownBy(() -> TaskKind.of("k", null)).hasMessageContaining("withoutPayload");
        assertThat(TaskKind.withoutPayload("tick").payloadType()).isEqualTo(Void.class);
    }

    record NoData() {}

    /** Private state and no getters: Jackson sees nothing, and storing {} would lose the state silently. */
    static final class Hidden {
        private final String secret = "kept";

        @Override
        public String toString() {
            return secret;
        }
    }

    @Test
    void anEmptyRecordIsStoredAsAnEmptyObjectAndHiddenStateIsRefused() {
        PayloadCodec codec = new PayloadCodec();
        assertThat(codec.encode(new NoData())).isEqualTo("{}");
        assertThat(codec.decode("{}", NoData.class)).isEqualTo(new NoData());
        assertThatThrownBy(() -> codec.encode(new Hidden()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(Hidden.class.getName())
                .hasMessageContaining("use a record");
    }
}
