package dev.errand.scripting;

import dev.errand.ErrandBuilder;
import dev.errand.config.Names;
import dev.errand.config.Settings;
import dev.errand.config.TablePrefix;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * How scripting is installed: where its table is, the kind it registers, how scripts run, and which languages
 * they may be written in. Build with {@link #builder()}; every setter checks its argument at once.
 */
public final class ScriptingOptions {

    /** The kind registered unless {@link Builder#kind(String)} names another. */
    public static final String DEFAULT_KIND = "errand-script";

    /** The execution timeout unless {@link Builder#executionTimeout(Duration)} sets another. */
    public static final Duration DEFAULT_EXECUTION_TIMEOUT = Duration.ofMinutes(5);

    /** The longest source unless {@link Builder#maxSourceLength(int)} sets another. */
    public static final int DEFAULT_MAX_SOURCE_LENGTH = 100_000;

    /** The most a source may be allowed to hold. */
    public static final int MAX_SOURCE_LENGTH_LIMIT = 10_000_000;

    private final TablePrefix tablePrefix;
    private final String dialect;
    private final boolean migrationsEnabled;
    private final String kind;
    private final ExecutionMode mode;
    private final Duration executionTimeout;
    private final int maxSourceLength;
    private final int cacheSize;
    private final Map<String, ScriptLanguage> languages;
    private final Consumer<TaskDefinition.Builder<ScriptCall>> definition;

    private ScriptingOptions(Builder builder) {
        this.tablePrefix = builder.tablePrefix;
        this.dialect = builder.dialect;
        this.migrationsEnabled = builder.migrationsEnabled;
        this.kind = builder.kind;
        this.mode = builder.mode;
        this.executionTimeout = builder.executionTimeout;
        this.maxSourceLength = builder.maxSourceLength;
        this.cacheSize = builder.cacheSize;
        Map<String, ScriptLanguage> chosen = new LinkedHashMap<>();
        List<ScriptLanguage> given =
                builder.languages.isEmpty() ? List.of(GroovyLanguage.standard()) : builder.languages;
        for (ScriptLanguage language : given) {
            chosen.put(language.name(), language);
        }
        this.languages = Map.copyOf(chosen);
        this.definition = builder.definition;
    }

    /** Starts options with the defaults: prefix {@code errand_}, kind {@code errand-script}, Groovy, etc. */
    public static Builder builder() {
        return new Builder();
    }

    /** The options with every default. */
    public static ScriptingOptions defaults() {
        return builder().build();
    }

    /** The table prefix, the same as the node's. */
    public TablePrefix tablePrefix() {
        return tablePrefix;
    }

    /** The dialect set by hand, or {@code null} to detect it. */
    public String dialect() {
        return dialect;
    }

    /** Whether scripting applies its migration itself. */
    public boolean migrationsEnabled() {
        return migrationsEnabled;
    }

    /** The kind that runs scripts. */
    public String kind() {
        return kind;
    }

    /** How every script runs relative to the completing transaction. */
    public ExecutionMode mode() {
        return mode;
    }

    /** The longest one attempt of a script may run. */
    public Duration executionTimeout() {
        return executionTimeout;
    }

    /** The longest source {@link ScriptAdmin#save} accepts, in characters. */
    public int maxSourceLength() {
        return maxSourceLength;
    }

    /** How many compiled script versions are kept. */
    public int cacheSize() {
        return cacheSize;
    }

    /** The languages scripts may be written in, by name. */
    public Map<String, ScriptLanguage> languages() {
        return languages;
    }

    /** The application's changes to the kind's definition (retries, attempts, lease), applied last. */
    Consumer<TaskDefinition.Builder<ScriptCall>> definition() {
        return definition;
    }

    /** Builds {@link ScriptingOptions}. */
    public static final class Builder {
        private TablePrefix tablePrefix = TablePrefix.DEFAULT;
        private String dialect;
        private boolean migrationsEnabled = true;
        private String kind = DEFAULT_KIND;
        private ExecutionMode mode = ExecutionMode.TRANSACTIONAL;
        private Duration executionTimeout = DEFAULT_EXECUTION_TIMEOUT;
        private int maxSourceLength = DEFAULT_MAX_SOURCE_LENGTH;
        private int cacheSize = 100;
        private final List<ScriptLanguage> languages = new ArrayList<>();
        private Consumer<TaskDefinition.Builder<ScriptCall>> definition = builder -> {};

        private Builder() {}

        /**
         * Sets the table prefix (default {@code errand_}): give the node's, as set with
         * {@link ErrandBuilder#tablePrefix(String)}. The script table is {@code <prefix>script}.
         *
         * @throws IllegalArgumentException if it is not a plain SQL identifier of at most 40 characters
         */
        public Builder tablePrefix(String prefix) {
            this.tablePrefix = new TablePrefix(prefix);
            return this;
        }

        /**
         * Sets the dialect instead of detecting it: one of {@link ErrandBuilder#dialectNames()}.
         *
         * @throws IllegalArgumentException for any other name
         */
        public Builder dialect(String name) {
            String key = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
            if (!ErrandBuilder.dialectNames().contains(key)) {
                throw new IllegalArgumentException(
                        "Unknown dialect " + Names.echo(name) + "; use one of " + ErrandBuilder.dialectNames());
            }
            this.dialect = key;
            return this;
        }

        /** Turns the script table's migration on or off (default on); off for teams that run the DDL themselves. */
        public Builder migrationsEnabled(boolean enabled) {
            this.migrationsEnabled = enabled;
            return this;
        }

        /**
         * Sets the kind that runs scripts (default {@code errand-script}).
         *
         * @throws IllegalArgumentException if it is not a valid kind name
         */
        public Builder kind(String kind) {
            this.kind = TaskKind.requireValidName(kind);
            return this;
        }

        /**
         * Sets how scripts run (default {@link ExecutionMode#TRANSACTIONAL}): in the transaction that completes
         * the task, with its connection bound as {@code connection}, or outside any transaction. The mode is the
         * kind's, the same for every script; install scripting twice with two kinds to offer both.
         *
         * @throws IllegalArgumentException if null
         */
        public Builder mode(ExecutionMode mode) {
            if (mode == null) {
                throw new IllegalArgumentException("mode must not be null; use TRANSACTIONAL or NON_TRANSACTIONAL");
            }
            this.mode = mode;
            return this;
        }

        /**
         * Sets the longest one attempt of a script may run (default 5 minutes); its thread is then interrupted
         * and the attempt fails. There is always a limit, so that a looping script cannot hold a worker for ever.
         *
         * @throws IllegalArgumentException if null or outside 10 ms to 24 h
         */
        public Builder executionTimeout(Duration timeout) {
            this.executionTimeout = Settings.EXECUTION_TIMEOUT.require("Script execution timeout", timeout);
            return this;
        }

        /**
         * Sets the longest source {@link ScriptAdmin#save} accepts (default 100,000 characters).
         *
         * @throws IllegalArgumentException if outside 1 to 10,000,000
         */
        public Builder maxSourceLength(int characters) {
            if (characters < 1 || characters > MAX_SOURCE_LENGTH_LIMIT) {
                throw new IllegalArgumentException("maxSourceLength must be from 1 to " + MAX_SOURCE_LENGTH_LIMIT
                        + " characters, got " + characters);
            }
            this.maxSourceLength = characters;
            return this;
        }

        /**
         * Sets how many compiled script versions each node keeps (default 100); the least recently run goes first.
         *
         * @throws IllegalArgumentException if outside 1 to 10,000
         */
        public Builder cacheSize(int versions) {
            if (versions < 1 || versions > 10_000) {
                throw new IllegalArgumentException(
                        "cacheSize must be from 1 to 10000 script versions, got " + versions);
            }
            this.cacheSize = versions;
            return this;
        }

        /**
         * Adds a language scripts may be written in. Without any, Groovy ({@link GroovyLanguage#standard()}) is
         * the only one; once one is added, only the added ones are offered.
         *
         * @throws IllegalArgumentException if null, its name is not 1 to 50 plain characters, or the name is taken
         */
        public Builder language(ScriptLanguage language) {
            if (language == null) {
                throw new IllegalArgumentException(
                        "language must not be null; use GroovyLanguage.standard() or ScriptLanguage.jsr223(name)");
            }
            Names.require("Script language name", language.name(), 50);
            for (ScriptLanguage added : languages) {
                if (added.name().equals(language.name())) {
                    throw new IllegalArgumentException(
                            "Script language '" + language.name() + "' is added twice; add each language once");
                }
            }
            languages.add(language);
            return this;
        }

        /**
         * Changes the kind's definition after scripting set its mode and execution timeout: retry policy, maximum
         * attempts, lease, retention, failure callback.
         *
         * @throws IllegalArgumentException if null
         */
        public Builder definition(Consumer<TaskDefinition.Builder<ScriptCall>> customizer) {
            if (customizer == null) {
                throw new IllegalArgumentException("definition customizer must not be null");
            }
            this.definition = customizer;
            return this;
        }

        /** Builds the options. */
        public ScriptingOptions build() {
            return new ScriptingOptions(this);
        }
    }
}
