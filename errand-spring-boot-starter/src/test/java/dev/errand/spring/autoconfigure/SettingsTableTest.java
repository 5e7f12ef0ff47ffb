package dev.errand.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.config.Setting;
import dev.errand.config.Settings;
import dev.errand.enqueue.TaskRequest;
import dev.errand.spring.ErrandTask;
import dev.errand.task.TaskDefinition;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.validation.BeanPropertyBindingResult;
import tools.jackson.databind.JsonNode;

/**
 * Every setting of the core's table, {@link Settings}, is set, bound and documented the same way: a setter
 * (on {@link ErrandBuilder} for a node setting, elsewhere for the few listed below), an {@code errand.*}
 * property that reaches the node (or the reason why it has none), a row in {@code docs/CONFIGURATION.md} and
 * one in {@code docs/SPRING.md}, each row with the table's default and range. And the other way round: every
 * setter of {@code ErrandBuilder} has a row in CONFIGURATION.md, every property of the published metadata and
 * every {@code @ErrandTask} attribute a row in SPRING.md, and no row there names a property that does not
 * exist. A setting added to the table without the rest fails here and says what is missing.
 */
class SettingsTableTest {

    private static final String CONFIGURATION = "CONFIGURATION.md";
    private static final String SPRING = "SPRING.md";
    private static final String BUILDER_TABLE = "## `ErrandBuilder`";
    private static final String KIND_TABLE = "## `TaskDefinition`";
    private static final String REQUEST_TABLE = "## `TaskRequest`";
    private static final String PROPERTY_TABLE = "## Properties";
    private static final String ANNOTATION_TABLE = "## `@ErrandTask`";

    /** The settings that are not node-wide: where each is set, its property or why it has none, and its rows. */
    private static final Map<Setting<?>, Place> ELSEWHERE = Map.of(
            Settings.CONCURRENCY,
            new Place(
                    List.of(new Setter(ErrandBuilder.class, "queue", String.class, int.class)),
                    "errand.queues",
                    null,
                    List.of(
                            new Row(CONFIGURATION, BUILDER_TABLE, "queue"),
                            new Row(SPRING, PROPERTY_TABLE, "errand.queues.<name>.concurrency"))),
            Settings.EXECUTION_TIMEOUT,
            new Place(
                    List.of(new Setter(TaskDefinition.Builder.class, "executionTimeout", Duration.class)),
                    null,
                    "it is set per kind: @ErrandTask(executionTimeout) or an ErrandTaskCustomizer",
                    List.of(
                            new Row(CONFIGURATION, KIND_TABLE, "executionTimeout"),
                            new Row(SPRING, ANNOTATION_TABLE, "executionTimeout"))),
            Settings.MAX_ATTEMPTS,
            new Place(
                    List.of(
                            new Setter(TaskDefinition.Builder.class, "maxAttempts", int.class),
                            new Setter(TaskRequest.Builder.class, "maxAttempts", int.class)),
                    null,
                    "it is set per kind (@ErrandTask(maxAttempts)) and per request; errand.default-max-attempts is"
                            + " the node's default",
                    List.of(
                            new Row(CONFIGURATION, KIND_TABLE, "maxAttempts"),
                            new Row(CONFIGURATION, REQUEST_TABLE, "maxAttempts"),
                            new Row(SPRING, ANNOTATION_TABLE, "maxAttempts"))),
            Settings.GROUP_COMMIT,
            new Place(
                    List.of(new Setter(TaskDefinition.Builder.class, "groupCommit", int.class)),
                    null,
                    "it is set per kind: @ErrandTask(groupCommit) or an ErrandTaskCustomizer",
                    List.of(
                            new Row(CONFIGURATION, KIND_TABLE, "groupCommit"),
                            new Row(SPRING, ANNOTATION_TABLE, "groupCommit"))));

    /** A number with an optional unit, as the docs write values: {@code 500 ms}, {@code 1,000}, {@code 7 days}. */
    private static final String QUANTITY = "(\\d[\\d,]*)\\s*(ms|min|days|day|s|m|h|d)?(?![A-Za-z])";

    private static final Pattern ONE = Pattern.compile(QUANTITY);
    private static final Pattern RANGE = Pattern.compile(QUANTITY + "\\s*(?:–|-|to)\\s*" + QUANTITY);

    /** Where a setting is set, its property (or why there is none) and its rows in the docs. */
    record Place(List<Setter> setters, String property, String noPropertyBecause, List<Row> rows) {}

    /** A method that sets a setting. */
    record Setter(Class<?> owner, String name, Class<?>... parameters) {
        @Override
        public String toString() {
            return owner.getSimpleName() + "." + name + Arrays.toString(parameters);
        }
    }

    /** A row of a table in the docs: the file, the heading the table stands under, the row's first cell. */
    record Row(String file, String heading, String key) {}

    static Stream<Setting<?>> everySetting() throws IllegalAccessException {
        List<Setting<?>> all = new ArrayList<>();
        for (Field field : Settings.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == Setting.class) {
                all.add((Setting<?>) field.get(null));
            }
        }
        return all.stream();
    }

    static Stream<Setting<?>> nodeSettings() {
        return Settings.nodeSettings().stream();
    }

    private static Place place(Setting<?> setting) {
        if (Settings.nodeSettings().contains(setting)) {
            Class<?> type = setting.type() == Integer.class ? int.class : Duration.class;
            return new Place(
                    List.of(new Setter(ErrandBuilder.class, setting.name(), type)),
                    "errand." + setting.property(),
                    null,
                    List.of(
                            new Row(CONFIGURATION, BUILDER_TABLE, setting.name()),
                            new Row(SPRING, PROPERTY_TABLE, "errand." + setting.property())));
        }
        Place place = ELSEWHERE.get(setting);
        if (place == null) {
            fail(
                    "Settings has %s, which is neither in Settings.nodeSettings() nor listed in this test's ELSEWHERE"
                            + " with where it is set",
                    setting.name());
        }
        return place;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everySetting")
    void everySettingHasItsSetters(Setting<?> setting) {
        for (Setter setter : place(setting).setters()) {
            assertThat(Arrays.stream(setter.owner().getMethods())
                            .anyMatch(m -> m.getName().equals(setter.name())
                                    && Arrays.equals(m.getParameterTypes(), setter.parameters())))
                    .as("%s is set with %s", setting.name(), setter)
                    .isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everySetting")
    void everySettingHasAPropertyOrAReasonWhyNot(Setting<?> setting) throws Exception {
        Place place = place(setting);
        if (place.property() == null) {
            assertThat(place.noPropertyBecause())
                    .as("why %s has no property", setting.name())
                    .isNotBlank();
        } else {
            assertThat(metadata()).as("configuration metadata").containsKey(place.property());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everySetting")
    void everySettingHasItsRowsWithTheTablesDefaultAndRange(Setting<?> setting) throws IOException {
        for (Row row : place(setting).rows()) {
            List<String> cells = table(row.file(), row.heading()).get(row.key());
            assertThat(cells)
                    .as("%s: a row %s in the table under %s", row.file(), row.key(), row.heading())
                    .isNotNull();
            String where = row.file() + ", row " + row.key();
            if (setting.defaultValue() != null) {
                assertThat(first(cells.get(1), setting))
                        .as("%s: the default (\"%s\")", where, cells.get(1))
                        .contains(setting.defaultValue());
            }
            assertThat(ranges(cells.get(2), setting))
                    .as("%s: the range (\"%s\")", where, cells.get(2))
                    .contains(List.of(setting.min(), setting.max()));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nodeSettings")
    void everyNodePropertyReachesTheNode(Setting<?> setting) {
        Object value = another(setting);
        ErrandProperties properties = new ErrandProperties();
        new BeanWrapperImpl(properties).setPropertyValue(setting.name(), value);
        BeanPropertyBindingResult errors = new BeanPropertyBindingResult(properties, "errand");
        properties.validate(properties, errors);
        assertThat(errors.getAllErrors()).isEmpty();
        ErrandBuilder builder = offline();
        properties.applyTo(builder);
        assertThat(builder.build().settings().get(setting))
                .as("errand.%s=%s", setting.property(), value)
                .isEqualTo(value);
    }

    @Test
    void everyBuilderSetterHasARowInConfigurationMd() throws IOException {
        Set<String> setters = new TreeSet<>();
        for (Method method : ErrandBuilder.class.getMethods()) {
            if (method.getReturnType() == ErrandBuilder.class && !Modifier.isStatic(method.getModifiers())) {
                setters.add(method.getName());
            }
        }
        assertThat(table(CONFIGURATION, BUILDER_TABLE).keySet())
                .as("rows of the ErrandBuilder table in CONFIGURATION.md")
                .containsAll(setters);
    }

    @Test
    void everyPropertyHasARowInSpringMdAndEveryRowIsAProperty() throws Exception {
        Set<String> properties = new TreeSet<>(metadata().keySet());
        Set<String> rows = table(SPRING, PROPERTY_TABLE).keySet();
        // A map of properties, such as errand.queues, has one row per entry's property: errand.queues.<name>.x.
        for (String property : properties) {
            assertThat(rows.stream().anyMatch(row -> row.equals(property) || row.startsWith(property + ".<")))
                    .as("SPRING.md has a row for %s", property)
                    .isTrue();
        }
        for (String row : rows) {
            String property = row.contains(".<") ? row.substring(0, row.indexOf(".<")) : row;
            assertThat(properties)
                    .as("the row %s of SPRING.md names a property", row)
                    .contains(property);
        }
    }

    @Test
    void everyErrandTaskAttributeHasARowInSpringMd() throws IOException {
        Set<String> attributes = new TreeSet<>();
        for (Method attribute : ErrandTask.class.getDeclaredMethods()) {
            attributes.add(attribute.getName());
        }
        assertThat(table(SPRING, ANNOTATION_TABLE).keySet())
                .as("rows of the @ErrandTask table in SPRING.md")
                .containsExactlyInAnyOrderElementsOf(attributes);
    }

    /** The first value written in a cell, read as the setting's type. */
    private static Optional<Object> first(String cell, Setting<?> setting) {
        Matcher matcher = ONE.matcher(cell);
        return matcher.find() ? value(matcher.group(1), matcher.group(2), setting) : Optional.empty();
    }

    /** Every range written in a cell ({@code 10 ms – 1 h}, {@code 1–1000}, {@code 10ms to 24h}), as [min, max]. */
    private static List<List<Object>> ranges(String cell, Setting<?> setting) {
        List<List<Object>> ranges = new ArrayList<>();
        Matcher matcher = RANGE.matcher(cell);
        while (matcher.find()) {
            Optional<Object> low = value(matcher.group(1), matcher.group(2), setting);
            Optional<Object> high = value(matcher.group(3), matcher.group(4), setting);
            if (low.isPresent() && high.isPresent()) {
                ranges.add(List.of(low.get(), high.get()));
            }
        }
        return ranges;
    }

    private static Optional<Object> value(String digits, String unit, Setting<?> setting) {
        long number = Long.parseLong(digits.replace(",", ""));
        if (setting.type() == Integer.class) {
            return unit == null ? Optional.of((int) number) : Optional.empty();
        }
        if (unit == null) {
            return number == 0 ? Optional.of(Duration.ZERO) : Optional.empty();
        }
        return Optional.of(
                switch (unit) {
                    case "ms" -> Duration.ofMillis(number);
                    case "s" -> Duration.ofSeconds(number);
                    case "m", "min" -> Duration.ofMinutes(number);
                    case "h" -> Duration.ofHours(number);
                    default -> Duration.ofDays(number);
                });
    }

    /**
     * The first table under a heading, by the first cell of each row without its backticks and, for a method,
     * without its parameters: {@code `pollInterval(Duration)`} is {@code pollInterval}.
     */
    private static Map<String, List<String>> table(String file, String heading) throws IOException {
        List<String> lines = Files.readAllLines(docs().resolve(file));
        int at = 0;
        while (at < lines.size() && !lines.get(at).startsWith(heading)) {
            at++;
        }
        assertThat(at).as("%s has a heading %s", file, heading).isLessThan(lines.size());
        while (at < lines.size() && !lines.get(at).startsWith("|")) {
            at++;
        }
        Map<String, List<String>> rows = new LinkedHashMap<>();
        // The header and the line under it are not rows.
        for (at += 2; at < lines.size() && lines.get(at).startsWith("|"); at++) {
            String line = lines.get(at).trim();
            List<String> cells = List.of(line.substring(1, line.length() - 1).split(" \\| "));
            String key = cells.get(0).replace("`", "").trim();
            rows.putIfAbsent(key.contains("(") ? key.substring(0, key.indexOf('(')) : key, cells);
        }
        return rows;
    }

    private static Path docs() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("docs").resolve(CONFIGURATION))) {
                return dir.resolve("docs");
            }
        }
        throw new AssertionError(
                "no docs/" + CONFIGURATION + " above " + Path.of("").toAbsolutePath());
    }

    /** The errand.* properties of the published configuration metadata, by name. */
    private static Map<String, JsonNode> metadata() throws Exception {
        Map<String, JsonNode> properties = new LinkedHashMap<>(ErrandPropertiesRangeTest.metadata());
        properties.keySet().removeIf(name -> !name.startsWith("errand."));
        return properties;
    }

    /** A value of the setting's range that is not its default: one unit above or below it, or the minimum. */
    private static Object another(Setting<?> setting) {
        List<Object> candidates = setting.defaultValue() instanceof Duration duration
                ? List.of(duration.plusMillis(1), duration.minusMillis(1))
                : setting.defaultValue() instanceof Integer number
                        ? List.of(number + 1, number - 1)
                        : List.of(setting.min());
        return candidates.stream()
                .filter(value -> problem(setting, value).isEmpty())
                .findFirst()
                .orElseThrow();
    }

    private static <T extends Comparable<? super T>> Optional<String> problem(Setting<T> setting, Object value) {
        return setting.problem(setting.name(), setting.type().cast(value));
    }

    /** A builder that needs no schema: the dialect is given and migrations are off. */
    private static ErrandBuilder offline() {
        JdbcDataSource unused = new JdbcDataSource();
        unused.setURL("jdbc:h2:mem:settings-table-unused");
        return Errand.builder(unused).dialect("h2").migrationsEnabled(false);
    }
}
