package dev.errand.scripting;

import java.util.LinkedHashMap;
import java.util.Map;
import javax.script.Compilable;
import javax.script.CompiledScript;
import javax.script.ScriptContext;
import javax.script.ScriptEngine;
import javax.script.ScriptException;

/**
 * The compiled script versions of this node, the least recently run evicted first. A version's code never
 * changes, so an entry never goes stale; a disabled version is refused before the cache is asked.
 */
final class CompiledScripts {

    /** The key of one version. */
    record Key(String name, int version) {}

    /** One version ready to run: its engine, and its compiled form where the engine compiles. */
    static final class Entry {
        private final ScriptEngine engine;
        private final CompiledScript compiled;
        private final String source;

        private Entry(ScriptEngine engine, CompiledScript compiled, String source) {
            this.engine = engine;
            this.compiled = compiled;
            this.source = compiled == null ? source : null;
        }

        /** Runs the version with this context's bindings; thread-safe when the engine is. */
        Object eval(ScriptContext context) throws ScriptException {
            return compiled != null ? compiled.eval(context) : engine.eval(source, context);
        }

        ScriptEngine engine() {
            return engine;
        }
    }

    private final Map<Key, Entry> entries;

    CompiledScripts(int capacity) {
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, Entry> eldest) {
                return size() > capacity;
            }
        };
    }

    /** The cached entry, or null. */
    synchronized Entry get(Key key) {
        return entries.get(key);
    }

    /**
     * Compiles a version and keeps it; when another thread compiled it meanwhile, that one is kept and returned.
     *
     * @throws ScriptException if it does not compile
     */
    Entry compile(Key key, ScriptLanguage language, String source) throws ScriptException {
        ScriptEngine engine = language.newEngine();
        CompiledScript compiled = engine instanceof Compilable compilable ? compilable.compile(source) : null;
        Entry entry = new Entry(engine, compiled, source);
        synchronized (this) {
            Entry raced = entries.putIfAbsent(key, entry);
            return raced != null ? raced : entry;
        }
    }

    /** How many versions are kept. */
    synchronized int size() {
        return entries.size();
    }
}
