package dev.errand.scripting.autoconfigure;

import dev.errand.config.Settings;
import dev.errand.scripting.ScriptingOptions;
import dev.errand.task.ExecutionMode;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code errand.scripting.*} settings. Scripting is off unless {@code errand.scripting.enabled=true}; see
 * {@code docs/SCRIPTING.md} for what turning it on exposes.
 */
@ConfigurationProperties("errand.scripting")
public class ErrandScriptingProperties {

    /**
     * Whether script tasks are on: the script table, the script kind, the ScriptAdmin bean and, with the console and
     * Spring Security, the console's script routes. A stored script runs with the application's privileges.
     */
    private boolean enabled;

    /** The kind that runs scripts. */
    private String kind = ScriptingOptions.DEFAULT_KIND;

    /** How scripts run: in the transaction that completes the task, or outside any transaction. */
    private ExecutionMode mode = ExecutionMode.TRANSACTIONAL;

    /** The longest one attempt of a script may run; its thread is then interrupted and the attempt fails. */
    private Duration executionTimeout = ScriptingOptions.DEFAULT_EXECUTION_TIMEOUT;

    /** The longest source a save accepts, in characters. */
    private int maxSourceLength = ScriptingOptions.DEFAULT_MAX_SOURCE_LENGTH;

    /** How many compiled script versions each node keeps. */
    private int cacheSize = 100;

    /**
     * Whether the console's JSON API serves the script routes to users with the console's admin authority (only with
     * the console and Spring Security on the class path).
     */
    private boolean console = true;

    /** Whether script tasks are on. */
    public boolean isEnabled() {
        return enabled;
    }

    /** Sets whether script tasks are on. */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** The kind that runs scripts. */
    public String getKind() {
        return kind;
    }

    /** Sets the kind that runs scripts. */
    public void setKind(String kind) {
        this.kind = kind;
    }

    /** How scripts run. */
    public ExecutionMode getMode() {
        return mode;
    }

    /** Sets how scripts run. */
    public void setMode(ExecutionMode mode) {
        this.mode = mode;
    }

    /** The longest one attempt may run. */
    public Duration getExecutionTimeout() {
        return executionTimeout;
    }

    /**
     * Sets the longest one attempt may run.
     *
     * @throws IllegalArgumentException if outside 10 ms to 24 h
     */
    public void setExecutionTimeout(Duration executionTimeout) {
        this.executionTimeout =
                Settings.EXECUTION_TIMEOUT.require("errand.scripting.execution-timeout", executionTimeout);
    }

    /** The longest source a save accepts. */
    public int getMaxSourceLength() {
        return maxSourceLength;
    }

    /** Sets the longest source a save accepts. */
    public void setMaxSourceLength(int maxSourceLength) {
        this.maxSourceLength = maxSourceLength;
    }

    /** How many compiled versions are kept. */
    public int getCacheSize() {
        return cacheSize;
    }

    /** Sets how many compiled versions are kept. */
    public void setCacheSize(int cacheSize) {
        this.cacheSize = cacheSize;
    }

    /** Whether the console serves the script routes. */
    public boolean isConsole() {
        return console;
    }

    /** Sets whether the console serves the script routes. */
    public void setConsole(boolean console) {
        this.console = console;
    }
}
