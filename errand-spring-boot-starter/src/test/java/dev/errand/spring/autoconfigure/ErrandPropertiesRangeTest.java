package dev.errand.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.config.Setting;
import dev.errand.config.Settings;
import java.io.InputStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.validation.BeanPropertyBindingResult;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every node setting of the core's table is an {@code errand.*} property with the table's default, the
 * table's range, and the table's default in the published configuration metadata; and the builder enforces
 * the same range. A drift would let a property pass binding and fail later, or show an IDE user a wrong
 * default.
 */
class ErrandPropertiesRangeTest {

    static Stream<Setting<?>> nodeSettings() {
        return Settings.nodeSettings().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nodeSettings")
    void theDefaultIsTheTables(Setting<?> setting) {
        Object value = new BeanWrapperImpl(new ErrandProperties()).getPropertyValue(setting.name());
        assertThat(value).as("errand." + setting.property()).isEqualTo(setting.defaultValue());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nodeSettings")
    void theMetadataShowsTheTablesDefault(Setting<?> setting) throws Exception {
        JsonNode property = metadata().get("errand." + setting.property());
        assertThat(property).as("metadata of errand." + setting.property()).isNotNull();
        JsonNode shown = property.get("defaultValue");
        if (setting.defaultValue() == null) {
            assertThat(shown == null || shown.isNull()).as("no default shown").isTrue();
        } else if (setting.defaultValue() instanceof Duration duration) {
            assertThat(DurationStyle.detectAndParse(shown.asString())).isEqualTo(duration);
        } else {
            assertThat(shown.asInt()).isEqualTo(setting.defaultValue());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nodeSettings")
    void theRangeIsTheTablesAndTheBuildersToo(Setting<?> setting) {
        Object min = setting.min();
        Object max = setting.max();
        accepted(setting, min);
        accepted(setting, max);
        refused(setting, below(min));
        refused(setting, above(max));
    }

    @Test
    void aQueuesConcurrencyFollowsTheTable() {
        ErrandProperties properties = new ErrandProperties();
        ErrandProperties.Queue queue = new ErrandProperties.Queue();
        assertThat(queue.getConcurrency()).isEqualTo(Settings.CONCURRENCY.defaultValue());
        queue.setConcurrency(Settings.CONCURRENCY.max() + 1);
        properties.getQueues().put("mail", queue);
        assertThat(errors(properties).getGlobalErrors()).singleElement().satisfies(error -> assertThat(
                        error.getDefaultMessage())
                .contains("errand.queues.mail.concurrency must be between 1 and 1000"));
        assertThatThrownBy(() -> builder().queue("mail", Settings.CONCURRENCY.max() + 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void tablePrefixRuleMatchesTheBuilder() {
        for (String accepted : new String[] {"errand_", "_x", "a".repeat(40)}) {
            assertThatCode(() -> builder().tablePrefix(accepted)).doesNotThrowAnyException();
            ErrandProperties properties = new ErrandProperties();
            properties.setTablePrefix(accepted);
            assertThat(errors(properties).hasErrors()).as(accepted).isFalse();
        }
        for (String refused : new String[] {"1x", "bad-prefix", "a".repeat(41), ""}) {
            assertThatThrownBy(() -> builder().tablePrefix(refused)).isInstanceOf(IllegalArgumentException.class);
            ErrandProperties properties = new ErrandProperties();
            properties.setTablePrefix(refused);
            assertThat(errors(properties).hasErrors()).as(refused).isTrue();
        }
    }

    @Test
    void defaultsAreValidAndTheBuilderTakesThem() {
        ErrandProperties defaults = new ErrandProperties();
        assertThat(errors(defaults).hasErrors()).isFalse();
        ErrandBuilder builder = builder();
        assertThatCode(() -> defaults.applyTo(builder)).doesNotThrowAnyException();
    }

    private static void accepted(Setting<?> setting, Object value) {
        assertThat(errors(with(setting, value)).hasErrors())
                .as("errand.%s=%s", setting.property(), value)
                .isFalse();
        assertThatCode(() -> setOnBuilder(setting, value))
                .as("builder %s=%s", setting.name(), value)
                .doesNotThrowAnyException();
    }

    private static void refused(Setting<?> setting, Object value) {
        BeanPropertyBindingResult errors = errors(with(setting, value));
        assertThat(errors.getFieldErrors(setting.name()))
                .as("errand.%s=%s", setting.property(), value)
                .singleElement()
                .satisfies(error -> assertThat(error.getDefaultMessage())
                        .startsWith("errand." + setting.property() + " must be between"));
        assertThatThrownBy(() -> setOnBuilder(setting, value))
                .as("builder %s=%s", setting.name(), value)
                .hasRootCauseInstanceOf(IllegalArgumentException.class);
    }

    private static ErrandProperties with(Setting<?> setting, Object value) {
        ErrandProperties properties = new ErrandProperties();
        new BeanWrapperImpl(properties).setPropertyValue(setting.name(), value);
        // Keep the lease at least twice the heartbeat whatever the value under test.
        if (setting == Settings.HEARTBEAT_INTERVAL) {
            properties.setLeaseDuration(Settings.LEASE_DURATION.max());
        } else if (setting == Settings.LEASE_DURATION) {
            properties.setHeartbeatInterval(Settings.HEARTBEAT_INTERVAL.min());
        }
        return properties;
    }

    private static void setOnBuilder(Setting<?> setting, Object value) throws Exception {
        Class<?> type = value instanceof Integer ? int.class : Duration.class;
        ErrandBuilder.class.getMethod(setting.name(), type).invoke(builder(), value);
    }

    private static Object below(Object min) {
        return min instanceof Duration d ? d.minusNanos(1) : (Integer) min - 1;
    }

    private static Object above(Object max) {
        return max instanceof Duration d ? d.plusNanos(1) : (Integer) max + 1;
    }

    /** Every property of the published configuration metadata, by name. */
    static Map<String, JsonNode> metadata() throws Exception {
        Map<String, JsonNode> properties = new HashMap<>();
        try (InputStream in =
                ErrandProperties.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("generated configuration metadata").isNotNull();
            for (JsonNode property : JsonMapper.builder().build().readTree(in).get("properties")) {
                properties.put(property.get("name").asString(), property);
            }
        }
        return properties;
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

    @Test
    void theThreadNamePrefixReachesTheBuilderAndABadOneIsRefused() {
        ErrandProperties properties = new ErrandProperties();
        assertThat(properties.getThreadNamePrefix()).isEqualTo("errand-");
        properties.setThreadNamePrefix(" padded");
        assertThat(errors(properties).getFieldErrors("threadNamePrefix"))
                .singleElement()
                .satisfies(error -> assertThat(error.getDefaultMessage()).contains("errand.thread-name-prefix"));
        properties.setThreadNamePrefix("billing-");
        assertThat(errors(properties).hasErrors()).isFalse();
        ErrandBuilder builder = builder();
        properties.applyTo(builder);
        assertThat(builder.toString()).isNotNull();
    }
}
