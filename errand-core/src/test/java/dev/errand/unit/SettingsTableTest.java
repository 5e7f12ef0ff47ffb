package dev.errand.unit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.config.ClusterSettings;
import dev.errand.config.ErrandSettings;
import dev.errand.config.Setting;
import dev.errand.config.Settings;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.TaskDefinition;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.stream.Stream;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The table of settings, {@link Settings}, says what the code does: every node setting is a setter of
 * {@link ErrandBuilder} that reaches {@link ErrandSettings}, and every default of the table is what a node,
 * a kind or a request has when nothing is set. (The starter's {@code SettingsTableTest} checks properties
 * and documentation against the same table.)
 */
class SettingsTableTest {

    static Stream<Setting<?>> nodeSettings() {
        return Settings.nodeSettings().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nodeSettings")
    void theBuildersSetterOfTheSameNameReachesTheSettings(Setting<?> setting) throws Exception {
        Object value = another(setting);
        ErrandBuilder builder = offline();
        Class<?> type = value instanceof Integer ? int.class : Duration.class;
        ErrandBuilder.class.getMethod(setting.name(), type).invoke(builder, value);
        ErrandSettings settings = builder.build().settings();
        assertThat(read(settings, setting))
                .as("ErrandSettings.%s()", setting.name())
                .isEqualTo(value);
        assertThat(settings.get(setting))
                .as("ErrandSettings.get(%s)", setting.name())
                .isEqualTo(value);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nodeSettings")
    void theGenericSetterReachesTheSettingsToo(Setting<?> setting) throws Exception {
        Object value = another(setting);
        ErrandBuilder builder = offline();
        setGenerically(builder, setting, value);
        assertThat(builder.build().settings().get(setting)).as(setting.name()).isEqualTo(value);
    }

    @Test
    void theGenericSetterChecksAsTheNamedSettersDo() {
        assertThatThrownBy(() -> offline().set(Settings.POLL_INTERVAL, Duration.ofMillis(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("pollInterval must be between 10ms and 1h, got 1ms");
        assertThatThrownBy(() -> offline().set(Settings.HISTORY_RETENTION, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("historyRetention must be between");
        assertThatThrownBy(() -> offline().set(Settings.CONCURRENCY, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("concurrency is not a node setting")
                .hasMessageContaining("ErrandBuilder.queue");
        assertThatThrownBy(() -> offline().set(null, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Settings.nodeSettings()");
        ErrandSettings off = offline()
                .succeededRetention(Duration.ofDays(1))
                .set(Settings.SUCCEEDED_RETENTION, null)
                .build()
                .settings();
        assertThat(off.succeededRetention()).as("null turns a retention off").isNull();
        assertThatThrownBy(() -> off.get(Settings.CONCURRENCY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("concurrency is not a node setting");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nodeSettings")
    void aNodeWithNothingSetHasTheTablesDefault(Setting<?> setting) throws Exception {
        assertThat(read(offline().build().settings(), setting))
                .as(setting.name())
                .isEqualTo(setting.defaultValue());
    }

    @Test
    void aQueueAKindAndARequestWithNothingSetHaveTheTablesDefaults() {
        ErrandSettings settings = offline().build().settings();
        assertThat(settings.queues()).containsEntry(ErrandSettings.DEFAULT_QUEUE, Settings.CONCURRENCY.defaultValue());
        TaskDefinition<String> kind =
                TaskDefinition.builder("k", String.class, (p, c) -> {}).build();
        assertThat(kind.executionTimeout()).as("executionTimeout").isEqualTo(Settings.EXECUTION_TIMEOUT.defaultValue());
        assertThat(kind.maxAttempts()).as("maxAttempts of a kind").isEqualTo(Settings.MAX_ATTEMPTS.defaultValue());
        assertThat(TaskRequest.of("k", "p").maxAttempts())
                .as("maxAttempts of a request")
                .isEqualTo(Settings.MAX_ATTEMPTS.defaultValue());
    }

    /** The value of a setting as the built settings hold it: a method of the same name, maybe in the cluster part. */
    private static Object read(ErrandSettings settings, Setting<?> setting) throws Exception {
        for (Object part : new Object[] {settings, settings.cluster()}) {
            for (Method method : part.getClass().getMethods()) {
                if (method.getName().equals(setting.name()) && method.getParameterCount() == 0) {
                    return method.invoke(part);
                }
            }
        }
        throw new AssertionError("Neither ErrandSettings nor " + ClusterSettings.class.getSimpleName()
                + " has an accessor " + setting.name() + "()");
    }

    /** A value in the setting's range other than its default: next to it, or the minimum if it has none. */
    private static Object another(Setting<?> setting) {
        if (setting.defaultValue() instanceof Duration duration) {
            Duration up = duration.plusMillis(1);
            return up.compareTo((Duration) setting.max()) <= 0 ? up : duration.minusMillis(1);
        }
        if (setting.defaultValue() instanceof Integer number) {
            return number < (Integer) setting.max() ? number + 1 : number - 1;
        }
        return setting.min();
    }

    private static <T extends Comparable<? super T>> void setGenerically(
            ErrandBuilder builder, Setting<T> setting, Object value) {
        builder.set(setting, setting.type().cast(value));
    }

    /** A builder that needs no schema: the dialect is given and migrations are off. */
    private static ErrandBuilder offline() {
        JdbcDataSource unused = new JdbcDataSource();
        unused.setURL("jdbc:h2:mem:settings-table-unused");
        return Errand.builder(unused).dialect("h2").migrationsEnabled(false);
    }
}
