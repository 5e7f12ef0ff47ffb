package dev.errand.scripting;

import dev.errand.scripting.internal.ScriptStore;
import dev.errand.scripting.internal.ScriptStore.Head;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskHandler;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import javax.script.Bindings;
import javax.script.ScriptContext;
import javax.script.ScriptException;
import javax.script.SimpleScriptContext;
import javax.sql.DataSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The handler of the script kind: finds the version the task runs (its own, or the newest saved no later than the
 * task was created), refuses a disabled one, takes it compiled from the cache or compiles it, binds {@code input},
 * {@code task}, {@code logger} and, in transactional mode, {@code connection}, and runs it. What the script throws
 * is what the attempt fails with.
 */
final class ScriptRunner implements TaskHandler<ScriptCall> {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final DataSource dataSource;
    private final ScriptStore store;
    private final Map<String, ScriptLanguage> languages;
    private final CompiledScripts cache;
    private final ExecutionMode mode;

    ScriptRunner(DataSource dataSource, ScriptStore store, ScriptingOptions options, CompiledScripts cache) {
        this.dataSource = dataSource;
        this.store = store;
        this.languages = options.languages();
        this.cache = cache;
        this.mode = options.mode();
    }

    /** A version found and allowed to run, with its source when the cache does not have it. */
    private record Found(Head head, ScriptLanguage language, CompiledScripts.Entry entry, String source) {}

    @Override
    public void handle(ScriptCall call, TaskContext context) throws Exception {
        if (call == null) {
            throw new IllegalArgumentException("A script task needs a payload that names its script, such as"
                    + " {\"script\":\"nightly-cleanup\",\"input\":{}}; this one has none");
        }
        Found found;
        if (mode == ExecutionMode.TRANSACTIONAL) {
            found = find(context.connection(), call, context.taskId());
        } else {
            // Only while the version is looked up: the script itself may run long.
            try (Connection connection = dataSource.getConnection()) {
                found = find(connection, call, context.taskId());
            }
        }
        CompiledScripts.Entry entry = found.entry() != null
                ? found.entry()
                : cache.compile(
                        new CompiledScripts.Key(call.script(), found.head().version()),
                        found.language(),
                        found.source());
        run(entry, call, found.head().version(), context);
    }

    private Found find(Connection connection, ScriptCall call, long taskId) throws SQLException {
        Optional<Head> head = call.version() != null
                ? store.head(connection, call.script(), call.version())
                : store.headAsOfTask(connection, call.script(), taskId);
        if (head.isEmpty()) {
            throw new ScriptUnavailableException(
                    call.version() != null
                            ? "There is no script \"" + call.script() + "\" version " + call.version()
                            : "Script \"" + call.script() + "\" had no version when task " + taskId + " was created;"
                                    + " save the script before enqueueing tasks that run it");
        }
        Head version = head.get();
        if (version.disabledAt() != null) {
            throw new ScriptUnavailableException("Script \"" + call.script() + "\" version " + version.version()
                    + " was disabled by " + version.disabledBy() + " at " + version.disabledAt()
                    + "; save a new version and enqueue the work again");
        }
        ScriptLanguage language = languages.get(version.language());
        if (language == null) {
            throw new ScriptUnavailableException("Script \"" + call.script() + "\" version " + version.version()
                    + " is written in '" + version.language() + "', which this node does not offer (it offers "
                    + new TreeSet<>(languages.keySet()) + ")");
        }
        CompiledScripts.Entry cached = cache.get(new CompiledScripts.Key(call.script(), version.version()));
        if (cached != null) {
            return new Found(version, language, cached, null);
        }
        String source = store.source(connection, call.script(), version.version());
        if (source == null) {
            throw new ScriptUnavailableException(
                    "Script \"" + call.script() + "\" version " + version.version() + " was deleted");
        }
        return new Found(version, language, null, source);
    }

    private void run(CompiledScripts.Entry entry, ScriptCall call, int version, TaskContext context) throws Exception {
        ScriptTaskContext task = new ScriptTaskContext(context, call.script(), version);
        Bindings bindings = entry.engine().createBindings();
        bindings.put("input", plain(call.input()));
        bindings.put("task", task);
        bindings.put("logger", task.logger());
        if (mode == ExecutionMode.TRANSACTIONAL) {
            bindings.put("connection", context.connection());
        }
        SimpleScriptContext scriptContext = new SimpleScriptContext();
        scriptContext.setBindings(bindings, ScriptContext.ENGINE_SCOPE);
        scriptContext.setReader(new StringReader(""));
        try (ProcessingLogWriter out = new ProcessingLogWriter(context)) {
            scriptContext.setWriter(out);
            scriptContext.setErrorWriter(out);
            entry.eval(scriptContext);
        } catch (ScriptException e) {
            throw unwrap(e);
        }
    }

    /** What the script threw, so that the task's error names it rather than the engine's wrapper. */
    private static Exception unwrap(ScriptException e) {
        Throwable cause = e.getCause();
        while (cause instanceof ScriptException nested && nested.getCause() != null) {
            cause = nested.getCause();
        }
        if (cause instanceof Exception exception) {
            return exception;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return e;
    }

    private static Object plain(JsonNode input) {
        return input == null ? null : JSON.treeToValue(input, Object.class);
    }
}
