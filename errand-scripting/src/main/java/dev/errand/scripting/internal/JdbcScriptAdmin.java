package dev.errand.scripting.internal;

import dev.errand.config.Names;
import dev.errand.error.ErrandException;
import dev.errand.scripting.ScriptAdmin;
import dev.errand.scripting.ScriptCall;
import dev.errand.scripting.ScriptLanguage;
import dev.errand.scripting.ScriptVersion;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import javax.script.Compilable;
import javax.script.ScriptEngine;
import javax.script.ScriptException;

/** {@link ScriptAdmin} on the script table. */
public final class JdbcScriptAdmin implements ScriptAdmin {

    /** Longest user name recorded with a version. */
    public static final int MAX_ACTOR_LENGTH = 200;

    /** How often a save tries when another node's save takes its version number at the same time. */
    private static final int SAVE_TRIES = 10;

    /** Saves of this node, one at a time: they then never race each other for a version number. */
    private final ReentrantLock saving = new ReentrantLock();

    private final Jdbc jdbc;
    private final ScriptStore store;
    private final Map<String, ScriptLanguage> languages;
    private final int maxSourceLength;

    /**
     * Creates the admin.
     *
     * @param jdbc the transactions
     * @param store the table's statements
     * @param languages the languages offered, by name
     * @param maxSourceLength the longest source accepted
     */
    public JdbcScriptAdmin(Jdbc jdbc, ScriptStore store, Map<String, ScriptLanguage> languages, int maxSourceLength) {
        this.jdbc = jdbc;
        this.store = store;
        this.languages = Map.copyOf(languages);
        this.maxSourceLength = maxSourceLength;
    }

    @Override
    public ScriptVersion save(String name, String language, String source, String savedBy) {
        ScriptCall.requireName(name);
        ScriptLanguage lang = requireLanguage(language);
        requireSource(source);
        requireActor("savedBy", savedBy);
        requireCompiles(name, lang, source);
        saving.lock();
        try {
            for (int attempt = 1; ; attempt++) {
                try {
                    return jdbc.inTransaction("save of script " + Names.echo(name), c -> {
                        int version = store.nextVersion(c, name);
                        store.insert(c, name, version, language, source, savedBy);
                        return store.find(c, name, version).orElseThrow();
                    });
                } catch (ErrandException e) {
                    // Two nodes saving one name at once: the later finds its number taken, and takes the next.
                    if (attempt >= SAVE_TRIES || !isConflict(e.getCause())) {
                        throw e;
                    }
                    pause(attempt);
                }
            }
        } finally {
            saving.unlock();
        }
    }

    /** A short random pause, growing with the attempts, so that racing nodes fall out of step. */
    private static void pause(int attempt) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(5, 20L * attempt));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while saving a script", e);
        }
    }

    @Override
    public List<ScriptVersion> list() {
        return jdbc.inTransaction("list of scripts", store::newest);
    }

    @Override
    public List<ScriptVersion> versions(String name) {
        ScriptCall.requireName(name);
        return jdbc.inTransaction("read of script " + Names.echo(name), c -> store.versions(c, name));
    }

    @Override
    public Optional<ScriptVersion> find(String name, int version) {
        ScriptCall.requireName(name);
        requireVersion(version);
        return jdbc.inTransaction("read of script " + Names.echo(name), c -> store.find(c, name, version));
    }

    @Override
    public Optional<ScriptVersion> latest(String name) {
        ScriptCall.requireName(name);
        return jdbc.inTransaction("read of script " + Names.echo(name), c -> store.newest(c, name));
    }

    @Override
    public int disable(String name, String disabledBy) {
        ScriptCall.requireName(name);
        requireActor("disabledBy", disabledBy);
        return jdbc.inTransaction("disable of script " + Names.echo(name), c -> store.disable(c, name, disabledBy));
    }

    /**
     * The language of that name.
     *
     * @throws IllegalArgumentException if none is offered under that name
     */
    private ScriptLanguage requireLanguage(String language) {
        ScriptLanguage found = language == null ? null : languages.get(language);
        if (found == null) {
            throw new IllegalArgumentException("Script language must be one of " + new TreeSet<>(languages.keySet())
                    + ", got " + Names.echo(language)
                    + "; to offer another JSR-223 engine, add it with ScriptingOptions.Builder.language(...)");
        }
        return found;
    }

    private void requireSource(String source) {
        if (source == null || source.isBlank()) {
            throw new IllegalArgumentException("Script source must not be blank; give the script's code");
        }
        if (source.length() > maxSourceLength) {
            throw new IllegalArgumentException("Script source must be at most " + maxSourceLength
                    + " characters, got " + source.length()
                    + "; keep large data out of the code (pass it as the task's input), or raise"
                    + " ScriptingOptions.Builder.maxSourceLength (errand.scripting.max-source-length)");
        }
        for (int i = 0; i < source.length(); i++) {
            char c = source.charAt(i);
            if (c == 0) {
                throw new IllegalArgumentException("Script source must not contain NUL (U+0000), which PostgreSQL"
                        + " cannot store; found one at position " + i);
            }
            if (Character.isHighSurrogate(c)
                    && i + 1 < source.length()
                    && Character.isLowSurrogate(source.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException("Script source must be valid Unicode text: found half of a"
                        + " surrogate pair alone, U+" + String.format("%04X", (int) c) + ", at position " + i);
            }
        }
    }

    private static void requireActor(String what, String actor) {
        Names.require(what, actor, MAX_ACTOR_LENGTH);
    }

    private static void requireVersion(int version) {
        if (version < 1) {
            throw new IllegalArgumentException("Script version must be 1 or more, got " + version);
        }
    }

    /** Compiles the source once, so that code that does not compile never reaches a task. */
    private static void requireCompiles(String name, ScriptLanguage language, String source) {
        ScriptEngine engine = language.newEngine();
        if (!(engine instanceof Compilable compilable)) {
            return;
        }
        try {
            compilable.compile(source);
        } catch (ScriptException e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            throw new IllegalArgumentException(
                    "Script " + Names.echo(name) + " does not compile as " + language.name() + ": "
                            + cut(message, 2_000),
                    e);
        }
    }

    private static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max) + "... (" + text.length() + " characters)";
    }

    /** A duplicate version number (23xxx), or a deadlock or serialization failure (40001) between two inserts. */
    private static boolean isConflict(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("23") || state.equals("40001"));
    }
}
