package dev.errand.scripting;

import dev.errand.ErrandBuilder;
import dev.errand.config.Names;
import dev.errand.enqueue.TaskRequest;
import dev.errand.error.ErrandException;
import dev.errand.scripting.internal.Jdbc;
import dev.errand.scripting.internal.JdbcScriptAdmin;
import dev.errand.scripting.internal.ScriptDialect;
import dev.errand.scripting.internal.ScriptSchema;
import dev.errand.scripting.internal.ScriptStore;
import dev.errand.scripting.internal.ScriptStore.Head;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskKind;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import javax.sql.DataSource;

/**
 * Script tasks: code stored in the database by name and version, run by a task kind of its own
 * ({@code errand-script} unless {@link ScriptingOptions.Builder#kind(String)} names another). Nothing of it exists
 * until the application installs it:
 *
 * <pre>{@code
 * ErrandBuilder builder = Errand.builder(dataSource);
 * ErrandScripting scripting = ErrandScripting.install(builder, dataSource, ScriptingOptions.defaults());
 * Errand errand = builder.build();
 *
 * scripting.admin().save("greet", "groovy", "task.log('hello ' + input.name)", "alice");   // an admin action
 * try (Connection c = dataSource.getConnection()) {
 *     errand.enqueue(c, scripting.request(c, "greet", Map.of("name", "Bob")).build());
 * }
 * }</pre>
 *
 * <p>A stored script runs arbitrary code with the application's privileges on every node that runs the kind. Let
 * only administrators reach {@link #admin()} ({@code docs/SCRIPTING.md}).
 */
public final class ErrandScripting {

    private final DataSource dataSource;
    private final ScriptingOptions options;
    private final ScriptStore store;
    private final ScriptAdmin admin;
    private final TaskKind<ScriptCall> kind;
    private final TaskDefinition<ScriptCall> definition;

    private ErrandScripting(DataSource dataSource, ScriptingOptions options, ScriptDialect dialect) {
        this.dataSource = dataSource;
        this.options = options;
        this.store = new ScriptStore(dialect, options.tablePrefix());
        this.admin = new JdbcScriptAdmin(new Jdbc(dataSource), store, options.languages(), options.maxSourceLength());
        this.kind = TaskKind.of(options.kind(), ScriptCall.class);
        TaskDefinition.Builder<ScriptCall> builder = TaskDefinition.builder(
                        kind, new ScriptRunner(dataSource, store, options, new CompiledScripts(options.cacheSize())))
                .mode(options.mode())
                .executionTimeout(options.executionTimeout());
        options.definition().accept(builder);
        this.definition = builder.build();
    }

    /**
     * Sets scripting up and registers its kind on {@code builder}: {@link #create} and then
     * {@code builder.register(definition())}.
     *
     * @throws IllegalArgumentException if an argument is null, or the kind is registered on the builder already
     * @throws IllegalStateException if the dialect cannot be detected or the migration fails
     */
    public static ErrandScripting install(ErrandBuilder builder, DataSource dataSource, ScriptingOptions options) {
        if (builder == null) {
            throw new IllegalArgumentException("builder must not be null: pass the ErrandBuilder of the node");
        }
        ErrandScripting scripting = create(dataSource, options);
        builder.register(scripting.definition());
        return scripting;
    }

    /**
     * Sets scripting up without registering its kind, for hosts that register {@link #definition()} themselves:
     * detects the dialect (unless the options name one) and applies the script table's migration (unless turned
     * off).
     *
     * @throws IllegalArgumentException if an argument is null
     * @throws IllegalStateException if the dialect cannot be detected or the migration fails
     */
    public static ErrandScripting create(DataSource dataSource, ScriptingOptions options) {
        if (dataSource == null) {
            throw new IllegalArgumentException("dataSource must not be null: pass the node's DataSource");
        }
        if (options == null) {
            throw new IllegalArgumentException("options must not be null: use ScriptingOptions.defaults()");
        }
        ScriptDialect dialect =
                options.dialect() != null ? ScriptDialect.named(options.dialect()) : ScriptDialect.detect(dataSource);
        if (options.migrationsEnabled()) {
            ScriptSchema.migrate(dataSource, options.tablePrefix(), dialect);
        }
        return new ErrandScripting(dataSource, options, dialect);
    }

    /** The kind that runs scripts, for enqueueing. */
    public TaskKind<ScriptCall> kind() {
        return kind;
    }

    /** The kind's definition, for {@link ErrandBuilder#register}. */
    public TaskDefinition<ScriptCall> definition() {
        return definition;
    }

    /** Stores and reads scripts: an admin's API. */
    public ScriptAdmin admin() {
        return admin;
    }

    /** The options scripting was installed with. */
    public ScriptingOptions options() {
        return options;
    }

    /** The names of the languages scripts may be written in, sorted. */
    public List<String> languages() {
        return List.copyOf(new TreeSet<>(options.languages().keySet()));
    }

    /**
     * A call of the newest version of a script as {@code connection} sees it now, with that version written in:
     * tasks enqueued with it run that version, whatever is saved later.
     *
     * @throws IllegalArgumentException if the name is invalid, there is no such script, its newest version is
     *     disabled, or the input cannot be written as JSON
     * @throws ErrandException if the database fails
     */
    public ScriptCall pin(Connection connection, String script, Object input) {
        if (connection == null) {
            throw new IllegalArgumentException("connection must not be null: pass the one the task is enqueued on");
        }
        ScriptCall call = ScriptCall.latest(script, input);
        Optional<Head> newest;
        try {
            newest = store.newestHead(connection, script);
        } catch (SQLException e) {
            throw new ErrandException("read of script " + Names.echo(script), e);
        }
        Head head = newest.orElseThrow(() -> new IllegalArgumentException("There is no script " + Names.echo(script)
                + "; save it with ScriptAdmin.save before enqueueing tasks that run it"));
        if (head.disabledAt() != null) {
            throw new IllegalArgumentException("Script " + Names.echo(script) + " version " + head.version()
                    + " is disabled; save a new version to run it again");
        }
        return call.withVersion(head.version());
    }

    /**
     * A request for a task that runs the newest version of a script, pinned at enqueue ({@link #pin}); set its
     * queue, delay or priority on the builder, then enqueue it on the same connection.
     *
     * @throws IllegalArgumentException as {@link #pin} does
     * @throws ErrandException if the database fails
     */
    public TaskRequest.Builder request(Connection connection, String script, Object input) {
        return TaskRequest.builder(kind, pin(connection, script, input));
    }

    /**
     * The same as {@link #request(Connection, String, Object)}, reading the newest version on a connection of its
     * own: it sees versions committed before this call.
     *
     * @throws IllegalArgumentException as {@link #pin} does
     * @throws ErrandException if the database fails
     */
    public TaskRequest.Builder request(String script, Object input) {
        try (Connection connection = dataSource.getConnection()) {
            return request(connection, script, input);
        } catch (SQLException e) {
            throw new ErrandException("read of script " + Names.echo(script), e);
        }
    }
}
