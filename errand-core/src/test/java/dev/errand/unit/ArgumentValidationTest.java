package dev.errand.unit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.internal.store.Dialects;
import dev.errand.task.RetryLater;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import java.io.PrintWriter;
import java.sql.Connection;
import java.time.Duration;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Every public entry point rejects bad arguments with a message that says what to do. These checks
 * run before any database work, so the DataSource here is never asked for a connection.
 */
class ArgumentValidationTest {

    private static final DataSource UNUSED = new DataSource() {
        @Override
        public Connection getConnection() {
            throw new AssertionError("argument checks must not touch the database");
        }

        @Override
        public Connection getConnection(String user, String password) {
            return getConnection();
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {}

        @Override
        public void setLoginTimeout(int seconds) {}

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getGlobal();
        }

        @Override
        public <T> T unwrap(Class<T> type) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isWrapperFor(Class<?> type) {
            return false;
        }
    };

    private static ErrandBuilder builder() {
        return Errand.builder(UNUSED);
    }

    @Test
    void builderRejectsBadSettingsByName() {
        assertThatThrownBy(() -> Errand.builder(null)).hasMessageContaining("DataSource");
        assertThatThrownBy(() -> builder().queue("", 1)).hasMessageContaining("Queue name");
        assertThatThrownBy(() -> builder().queue("q", 0))
                .hasMessageContaining("concurrency of queue 'q'")
                .hasMessageContaining("between 1 and 1000");
        assertThatThrownBy(() -> builder().pollInterval(Duration.ofMillis(1))).hasMessageContaining("pollInterval");
        assertThatThrownBy(() -> builder().claimBatchSize(0)).hasMessageContaining("claimBatchSize");
        assertThatThrownBy(() -> builder().leaseDuration(null)).hasMessageContaining("leaseDuration");
        assertThatThrownBy(() -> builder().heartbeatInterval(Duration.ZERO)).hasMessageContaining("heartbeatInterval");
        assertThatThrownBy(() -> builder().shutdownTimeout(Duration.ofSeconds(-1)))
                .hasMessageContaining("shutdownTimeout");
        assertThatThrownBy(() -> builder().defaultMaxAttempts(0)).hasMessageContaining("defaultMaxAttempts");
        assertThatThrownBy(() -> builder().defaultRetryPolicy(null)).hasMessageContaining("RetryPolicy.fixed");
        assertThatThrownBy(() -> builder().nodeId(" ")).hasMessageContaining("nodeId");
        assertThatThrownBy(() -> builder().clock(null)).hasMessageContaining("DatabaseClock.database()");
        assertThatThrownBy(() -> builder().succeededRetention(Duration.ZERO))
                .hasMessageContaining("succeededRetention");
    }

    @Test
    void leaseMustOutlastTwoHeartbeats() {
        assertThatThrownBy(() -> builder()
                        .leaseDuration(Duration.ofSeconds(5))
                        .heartbeatInterval(Duration.ofSeconds(3))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("leaseDuration")
                .hasMessageContaining("twice heartbeatInterval");
        TaskDefinition<Integer> shortLease = TaskDefinition.builder("short", Integer.class, (n, c) -> {})
                .leaseDuration(Duration.ofSeconds(15))
                .build();
        assertThatThrownBy(() -> builder().register(shortLease).build())
                .hasMessageContaining("leaseDuration of kind 'short'");
    }

    @Test
    void kindsAreRegisteredOnce() {
        TaskDefinition<Integer> first =
                TaskDefinition.builder("twice", Integer.class, (n, c) -> {}).build();
        TaskDefinition<Integer> second =
                TaskDefinition.builder("twice", Integer.class, (n, c) -> {}).build();
        assertThatThrownBy(() -> builder().register(first).register(second))
                .hasMessageContaining("'twice' is registered twice");
        assertThatThrownBy(() -> builder().register(null)).hasMessageContaining("TaskDefinition.builder");
    }

    @Test
    void taskDefinitionRejectsBadOptions() {
        assertThatThrownBy(() -> TaskDefinition.builder(" ", Integer.class, (n, c) -> {}))
                .hasMessageContaining("non-blank characters");
        assertThatThrownBy(() -> TaskDefinition.builder("k".repeat(201), Integer.class, (n, c) -> {}))
                .hasMessageContaining("at most 200");
        assertThatThrownBy(() -> TaskDefinition.builder("k", null, (n, c) -> {}))
                .hasMessageContaining("Void.class");
        assertThatThrownBy(() -> TaskDefinition.builder("k", Integer.class, null))
                .hasMessageContaining("TaskHandler");
        assertThatThrownBy(() ->
                        TaskDefinition.builder("k", Integer.class, (n, c) -> {}).maxAttempts(0))
                .hasMessageContaining("between 1 and 1000");
        assertThatThrownBy(() ->
                        TaskDefinition.builder("k", Integer.class, (n, c) -> {}).maxAttempts(1001))
                .hasMessageContaining("between 1 and 1000");
        assertThatThrownBy(() ->
                        TaskDefinition.builder("k", Integer.class, (n, c) -> {}).leaseDuration(Duration.ofMillis(10)))
                .hasMessageContaining("between 1s and 1d");
        assertThatThrownBy(() ->
                        TaskDefinition.builder("k", Integer.class, (n, c) -> {}).mode(null))
                .hasMessageContaining("TRANSACTIONAL");
    }

    @Test
    void retryLaterNeedsADelay() {
        assertThatThrownBy(() -> RetryLater.after(Duration.ofSeconds(-1))).hasMessageContaining("zero or more");
        assertThat(RetryLater.after(Duration.ofSeconds(1)).commitWrites().writesCommit())
                .isTrue();
        assertThat(RetryLater.after(Duration.ofSeconds(1)).writesCommit()).isFalse();
    }

    @Test
    void unsupportedDatabasesAreNamedWithTheSupportedList() {
        assertThatThrownBy(() -> Dialects.forProduct("Oracle", "23.4", 23, 4))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Oracle 23.4")
                .hasMessageContaining("PostgreSQL 12+, MariaDB 10.6+, MySQL 8.0.16+, H2 2.x")
                .hasMessageContaining("ErrandBuilder.dialect");
        assertThatThrownBy(() -> Dialects.forProduct("PostgreSQL", "9.6", 9, 6)).hasMessageContaining("PostgreSQL 9.6");
        assertThatThrownBy(() -> Dialects.forProduct("MariaDB", "10.5.8-MariaDB", 10, 5))
                .hasMessageContaining("MariaDB 10.5");
        assertThat(Dialects.forProduct("PostgreSQL", "15.4", 15, 4).name()).isEqualTo("postgresql");
        assertThat(Dialects.forProduct("H2", "2.4.240", 2, 4).name()).isEqualTo("h2");
        assertThat(Dialects.forProduct("MariaDB", "10.11.19-MariaDB", 10, 11).name())
                .isEqualTo("mariadb");
        // What MySQL Connector/J really reports for MariaDB 10.11: version 5.5, the real one in the string.
        assertThat(Dialects.forProduct("MySQL", "5.5.5-10.11.19-MariaDB", 5, 5).name())
                .isEqualTo("mariadb");
        assertThatThrownBy(() -> Dialects.forProduct("MySQL", "5.5.5-10.5.2-MariaDB", 5, 5))
                .hasMessageContaining("10.5");
        assertThat(Dialects.forProduct("MySQL", "8.4.0", 8, 4).name()).isEqualTo("mariadb");
        assertThat(Dialects.forProduct("MySQL", "8.0.16", 8, 0).name()).isEqualTo("mariadb");
        assertThatThrownBy(() -> Dialects.forProduct("MySQL", "8.0.12", 8, 0)).hasMessageContaining("MySQL 8.0.16+");
        assertThat(Dialects.named("MySQL").name()).isEqualTo("mariadb");
        assertThatThrownBy(() -> Dialects.named("oracle"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("postgresql, mariadb, mysql, h2");
        assertThatThrownBy(() -> builder().claimStrategy(null)).hasMessageContaining("ClaimStrategies.skipLocked()");
    }

    @Test
    void taskStatesRoundTripThroughTheirColumnValues() {
        for (TaskState state : TaskState.values()) {
            assertThat(TaskState.fromDbValue(state.dbValue())).isEqualTo(state);
        }
        assertThatThrownBy(() -> TaskState.fromDbValue("done")).hasMessageContaining("expected one of");
    }

    @Test
    void groupCommitIsRefusedOutsideItsRangeAndOnNonTransactionalKinds() {
        TaskDefinition.Builder<Integer> kind = TaskDefinition.builder("grouped", Integer.class, (n, ctx) -> {});
        assertThatThrownBy(() -> kind.groupCommit(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("groupCommit of kind 'grouped'")
                .hasMessageContaining("between 1 and 1000")
                .hasMessageContaining("got 0");
        assertThatThrownBy(() -> kind.groupCommit(100_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 and 1000");
        assertThatThrownBy(() -> kind.groupCommit(-5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TaskDefinition.builder("outside", Integer.class, (n, ctx) -> {})
                        .groupCommit(10)
                        .mode(dev.errand.task.ExecutionMode.NON_TRANSACTIONAL)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NON_TRANSACTIONAL")
                .hasMessageContaining("make the kind TRANSACTIONAL");
        assertThat(kind.groupCommit(1000).build().groupCommit()).isEqualTo(1000);
        assertThat(TaskDefinition.builder("single", Integer.class, (n, ctx) -> {})
                        .build()
                        .groupCommit())
                .isEqualTo(1);
    }
}
