package dev.errand.scripting.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.scripting.ErrandScripting;
import dev.errand.scripting.ScriptAdmin;
import dev.errand.scripting.ScriptVersion;
import dev.errand.scripting.ScriptingOptions;
import dev.errand.scripting.testing.ScriptingTestSupport;
import dev.errand.testkit.TestDatabase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link ScriptAdmin} on every database: numbered immutable versions on the database clock, concurrent saves, the
 * script table's own migration history, and bad input refused with a clear {@link IllegalArgumentException} before
 * anything is written.
 */
class ScriptAdminContractTest extends ScriptingTestSupport {

    private ErrandScripting scripting(ScriptingOptions options) {
        return ErrandScripting.create(dataSource(), options);
    }

    @ParameterizedTest
    @MethodSource("databases")
    void savesNumberedVersionsOnTheDatabaseClock(TestDatabase db) throws Exception {
        on(db);
        ScriptAdmin admin = scripting(options().build()).admin();
        Instant before = db.now();
        ScriptVersion first = admin.save("report", "groovy", "return 1", "alice");
        ScriptVersion second = admin.save("report", "groovy", "return 2", "bob");
        ScriptVersion other = admin.save("cleanup", "groovy", "return 3", "alice");
        Instant after = db.now();

        assertThat(first.version()).isEqualTo(1);
        assertThat(second.version()).isEqualTo(2);
        assertThat(other.version()).isEqualTo(1);
        assertThat(second.createdBy()).isEqualTo("bob");
        assertThat(second.source()).isEqualTo("return 2");
        assertThat(second.language()).isEqualTo("groovy");
        assertThat(second.disabled()).isFalse();
        for (ScriptVersion saved : List.of(first, second, other)) {
            assertThat(saved.createdAt()).isBetween(before.minusMillis(1), after.plusMillis(1));
        }
        assertThat(second.createdAt()).isAfterOrEqualTo(first.createdAt());

        assertThat(admin.versions("report")).extracting(ScriptVersion::version).containsExactly(2, 1);
        assertThat(admin.list()).extracting(v -> v.name() + "@" + v.version()).containsExactly("cleanup@1", "report@2");
        assertThat(admin.find("report", 1)).contains(first);
        assertThat(admin.latest("report")).contains(second);
        assertThat(admin.find("report", 3)).isEmpty();
        assertThat(admin.latest("nothing")).isEmpty();
        assertThat(admin.versions("nothing")).isEmpty();
        assertThat(admin.disable("nothing", "alice")).isZero();
        assertThat(admin.disable("report", "carol")).isEqualTo(2);
        assertThat(admin.versions("report"))
                .allSatisfy(v -> assertThat(v.disabledBy()).isEqualTo("carol"));
        assertThat(admin.find("report", 1).orElseThrow().source()).isEqualTo("return 1");
    }

    @ParameterizedTest
    @MethodSource("databases")
    void concurrentSavesOfOneNameGetDistinctVersions(TestDatabase db) throws Exception {
        on(db);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<List<Integer>>> savers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int saver = t;
                // An admin each, as on four nodes: nothing in the JVM keeps their saves apart.
                ScriptAdmin admin = scripting(options().build()).admin();
                savers.add(() -> {
                    List<Integer> versions = new ArrayList<>();
                    for (int i = 0; i < 5; i++) {
                        versions.add(admin.save("shared", "groovy", "return " + saver + i, "saver" + saver)
                                .version());
                    }
                    return versions;
                });
            }
            List<Integer> all = new ArrayList<>();
            for (Future<List<Integer>> done : pool.invokeAll(savers)) {
                all.addAll(done.get());
            }
            assertThat(all)
                    .containsExactlyInAnyOrderElementsOf(
                            IntStream.rangeClosed(1, 20).boxed().toList());
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest
    @MethodSource("databases")
    void theScriptTableHasAMigrationHistoryOfItsOwn(TestDatabase db) throws Exception {
        on(db);
        scripting(options().build());
        // Applying twice changes nothing; the core's history table is not created or touched by scripting.
        scripting(options().build());
        String history = prefix + "script_schema_history";
        // Flyway quotes its column names on H2.
        String version = db.isH2() ? "\"version\"" : "version";
        assertThat(scalar("SELECT COUNT(*) FROM " + history + " WHERE " + version + " = '1'"))
                .isEqualTo(1);
        assertThat(db.countTables(prefix + "schema_history")).isZero();
        assertThat(storedVersions()).isZero();
    }

    @ParameterizedTest
    @MethodSource("databases")
    void badInputIsRefusedWithAClearMessageAndNothingIsWritten(TestDatabase db) throws Exception {
        on(db);
        ScriptAdmin admin = scripting(options().maxSourceLength(1_000).build()).admin();
        String ok = "return 1";
        refused(() -> admin.save("", "groovy", ok, "alice"), "Script name must be 1 to 200 non-blank characters");
        refused(() -> admin.save("   ", "groovy", ok, "alice"), "Script name must be 1 to 200 non-blank characters");
        refused(() -> admin.save(null, "groovy", ok, "alice"), "Script name must be 1 to 200 non-blank characters");
        refused(() -> admin.save("x".repeat(201), "groovy", ok, "alice"), "Script name must be at most 200");
        refused(() -> admin.save("two\nlines", "groovy", ok, "alice"), "must not contain control characters");
        refused(() -> admin.save(" padded", "groovy", ok, "alice"), "must not start or end with whitespace");
        refused(() -> admin.save("report", "python", ok, "alice"), "Script language must be one of [groovy]");
        refused(() -> admin.save("report", null, ok, "alice"), "Script language must be one of [groovy]");
        refused(() -> admin.save("report", "Groovy", ok, "alice"), "Script language must be one of [groovy]");
        refused(() -> admin.save("report", "groovy", null, "alice"), "Script source must not be blank");
        refused(() -> admin.save("report", "groovy", " \n ", "alice"), "Script source must not be blank");
        refused(
                () -> admin.save("report", "groovy", "return 1 // " + "x".repeat(1_000), "alice"),
                "Script source must be at most 1000 characters, got 1012");
        refused(
                () -> admin.save("report", "groovy", "x".repeat(5_000_000), "alice"),
                "Script source must be at most 1000 characters, got 5000000");
        refused(() -> admin.save("report", "groovy", "return '\u0000'", "alice"), "must not contain NUL");
        refused(() -> admin.save("report", "groovy", "return '\uD800'", "alice"), "surrogate pair alone");
        refused(() -> admin.save("report", "groovy", "def x = (", "alice"), "does not compile as groovy");
        refused(() -> admin.save("report", "groovy", ok, ""), "savedBy must be 1 to 200 non-blank characters");
        refused(() -> admin.save("report", "groovy", ok, null), "savedBy must be 1 to 200 non-blank characters");
        refused(() -> admin.save("report", "groovy", ok, "y".repeat(201)), "savedBy must be at most 200");
        refused(() -> admin.find("report", 0), "Script version must be 1 or more");
        refused(() -> admin.versions(""), "Script name must be");
        refused(() -> admin.latest(null), "Script name must be");
        refused(() -> admin.disable("report", " "), "disabledBy must be 1 to 200 non-blank characters");
        refused(() -> admin.disable("", "alice"), "Script name must be");
        assertThat(storedVersions()).isZero();
    }

    private static void refused(Runnable call, String message) {
        assertThatThrownBy(call::run)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(2_500));
    }
}
