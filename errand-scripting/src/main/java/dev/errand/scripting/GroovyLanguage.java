package dev.errand.scripting;

import groovy.lang.GroovyClassLoader;
import groovy.transform.ThreadInterrupt;
import java.util.Objects;
import java.util.function.Consumer;
import javax.script.ScriptEngine;
import org.codehaus.groovy.control.CompilerConfiguration;
import org.codehaus.groovy.control.customizers.ASTTransformationCustomizer;
import org.codehaus.groovy.jsr223.GroovyScriptEngineImpl;

/**
 * Groovy, through its JSR-223 engine, stored as language {@code groovy}. Every script is compiled with
 * {@code groovy.transform.ThreadInterrupt}, which checks the thread's interrupt flag at the start of every loop
 * iteration, method and closure: a script that loops without end stops with an {@code InterruptedException}
 * when the kind's execution timeout (or a cancel request) interrupts its thread. Code the script calls outside
 * Groovy, such as a blocking library call, stops only if that code honours interrupts.
 *
 * <p>Each script version gets a class loader and engine of their own, so that scripts do not see each other's
 * classes or the closures the Groovy engine keeps per engine.
 */
public final class GroovyLanguage implements ScriptLanguage {

    /** The stored name, {@code groovy}. */
    public static final String NAME = "groovy";

    private final Consumer<CompilerConfiguration> configuration;

    private GroovyLanguage(Consumer<CompilerConfiguration> configuration) {
        this.configuration = configuration;
    }

    /** Groovy with its default compiler configuration, plus the interrupt checks. */
    public static GroovyLanguage standard() {
        return new GroovyLanguage(config -> {});
    }

    /**
     * Groovy with a compiler configuration of the application's, for example with a {@code SecureASTCustomizer}
     * that refuses some imports or receivers. Such customizers narrow what scripts can be written; they are not a
     * sandbox (see {@code docs/SCRIPTING.md}). The interrupt checks are added after {@code configure} runs.
     *
     * @throws IllegalArgumentException if {@code configure} is null
     */
    public static GroovyLanguage configured(Consumer<CompilerConfiguration> configure) {
        if (configure == null) {
            throw new IllegalArgumentException("configure must not be null; use GroovyLanguage.standard()");
        }
        return new GroovyLanguage(configure);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ScriptEngine newEngine() {
        CompilerConfiguration config = new CompilerConfiguration();
        configuration.accept(config);
        config.addCompilationCustomizers(new ASTTransformationCustomizer(ThreadInterrupt.class));
        ClassLoader parent =
                Objects.requireNonNullElse(GroovyLanguage.class.getClassLoader(), ClassLoader.getSystemClassLoader());
        return new GroovyScriptEngineImpl(new GroovyClassLoader(parent, config));
    }

    @Override
    public String toString() {
        return NAME;
    }
}
