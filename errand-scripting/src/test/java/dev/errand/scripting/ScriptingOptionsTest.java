package dev.errand.scripting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.task.ExecutionMode;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The options and the payload check their arguments at once, with messages that say what is accepted. */
class ScriptingOptionsTest {

    @Test
    void defaultsAreSafe() {
        ScriptingOptions options = ScriptingOptions.defaults();
        assertThat(options.kind()).isEqualTo("errand-script");
        assertThat(options.mode()).isEqualTo(ExecutionMode.TRANSACTIONAL);
        assertThat(options.executionTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(options.languages()).containsOnlyKeys("groovy");
        assertThat(options.tablePrefix().value()).isEqualTo("errand_");
        assertThat(options.migrationsEnabled()).isTrue();
    }

    @Test
    void badOptionsAreRefused() {
        ScriptingOptions.Builder builder = ScriptingOptions.builder();
        refused(() -> builder.tablePrefix("bad-prefix"), "Table prefix must be a plain SQL identifier");
        refused(() -> builder.dialect("oracle"), "Unknown dialect \"oracle\"; use one of");
        refused(() -> builder.kind(" "), "Task kind must be 1 to 200 non-blank characters");
        refused(() -> builder.mode(null), "mode must not be null");
        refused(() -> builder.executionTimeout(null), "Script execution timeout");
        refused(() -> builder.executionTimeout(Duration.ofDays(2)), "Script execution timeout");
        refused(() -> builder.maxSourceLength(0), "maxSourceLength must be from 1 to 10000000");
        refused(() -> builder.maxSourceLength(10_000_001), "maxSourceLength must be from 1 to 10000000");
        refused(() -> builder.cacheSize(0), "cacheSize must be from 1 to 10000");
        refused(() -> builder.language(null), "language must not be null");
        refused(() -> builder.definition(null), "definition customizer must not be null");
        refused(() -> ScriptLanguage.jsr223("no-such-engine"), "No JSR-223 script engine named \"no-such-engine\"");
        builder.language(GroovyLanguage.standard());
        refused(() -> builder.language(GroovyLanguage.standard()), "Script language 'groovy' is added twice");
        refused(() -> GroovyLanguage.configured(null), "configure must not be null");
        refused(() -> ErrandScripting.create(null, ScriptingOptions.defaults()), "dataSource must not be null");
    }

    @Test
    void badCallsAreRefused() {
        refused(() -> ScriptCall.of("", 1, null), "Script name must be 1 to 200 non-blank characters");
        refused(() -> ScriptCall.of("report", 0, null), "Script version must be 1 or more");
        refused(() -> ScriptCall.latest("report", new Unwritable(1)), "cannot be written as JSON");
        ScriptCall call = ScriptCall.latest("report", Map.of("n", 1));
        assertThat(call.version()).isNull();
        assertThat(call.input().get("n").asInt()).isEqualTo(1);
        assertThat(call.withVersion(3).version()).isEqualTo(3);
    }

    /** A value Jackson cannot write: its only property throws. */
    record Unwritable(int n) {
        @Override
        public int n() {
            throw new IllegalStateException("unreadable");
        }
    }

    private static void refused(Runnable call, String message) {
        assertThatThrownBy(call::run)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }
}
