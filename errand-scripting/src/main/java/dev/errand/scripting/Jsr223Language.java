package dev.errand.scripting;

import dev.errand.config.Names;
import java.util.List;
import javax.script.ScriptEngine;
import javax.script.ScriptEngineFactory;
import javax.script.ScriptEngineManager;

/** A language served by a JSR-223 engine found by name; see {@link ScriptLanguage#jsr223(String)}. */
final class Jsr223Language implements ScriptLanguage {

    private final String name;

    Jsr223Language(String name) {
        this.name = Names.require("Script engine name", name, 50);
        if (engine() == null) {
            List<String> available = new ScriptEngineManager(classLoader())
                    .getEngineFactories().stream()
                            .map(ScriptEngineFactory::getNames)
                            .flatMap(List::stream)
                            .sorted()
                            .toList();
            throw new IllegalArgumentException("No JSR-223 script engine named " + Names.echo(name)
                    + " is on the class path; the engines there answer to " + available
                    + ". Add the engine's jar, or use GroovyLanguage.standard()");
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ScriptEngine newEngine() {
        ScriptEngine engine = engine();
        if (engine == null) {
            throw new IllegalStateException("The JSR-223 script engine '" + name + "' is no longer available");
        }
        return engine;
    }

    private ScriptEngine engine() {
        return new ScriptEngineManager(classLoader()).getEngineByName(name);
    }

    private static ClassLoader classLoader() {
        return Jsr223Language.class.getClassLoader();
    }

    @Override
    public String toString() {
        return name + " (JSR-223)";
    }
}
