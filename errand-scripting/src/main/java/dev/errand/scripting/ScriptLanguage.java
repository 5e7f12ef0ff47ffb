package dev.errand.scripting;

import javax.script.ScriptEngine;
import javax.script.ScriptEngineManager;

/**
 * A language scripts may be written in, served by a JSR-223 ({@code javax.script}) engine. Groovy
 * ({@link GroovyLanguage}) is the default; {@link #jsr223(String)} plugs in any other engine on the class path.
 *
 * <p>Each stored version of a script gets an engine of its own from {@link #newEngine()}, compiled once (when the
 * engine is {@link javax.script.Compilable}) and kept in a cache, so engines need not be shared between scripts.
 * One engine runs its script on several worker threads at once, each with bindings of its own.
 *
 * <p>An engine must stop a running script when its thread is interrupted: that is how the kind's execution
 * timeout and a cancel request stop it. Groovy does so because {@link GroovyLanguage} compiles every script with
 * {@code groovy.transform.ThreadInterrupt}; an engine that ignores interrupts leaves a looping script running,
 * and its worker busy, for ever.
 */
public interface ScriptLanguage {

    /** The name stored with each script, such as {@code groovy}: 1 to 50 plain characters. */
    String name();

    /**
     * A new engine for one script version.
     *
     * @throws IllegalStateException if the engine cannot be created
     */
    ScriptEngine newEngine();

    /**
     * Any JSR-223 engine on the class path, found by its name through {@link ScriptEngineManager}. The engine must
     * honour thread interrupts (see above).
     *
     * @param engineName the engine's name, such as {@code js}; also the language's stored name
     * @throws IllegalArgumentException if no engine of that name is on the class path
     */
    static ScriptLanguage jsr223(String engineName) {
        return new Jsr223Language(engineName);
    }
}
