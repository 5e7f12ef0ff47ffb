package dev.errand.process;

import java.util.List;

/**
 * A process a node can run: its kind, its handler and, for processes created from a query on the cluster, the row
 * mapper that turns the query's rows into items. Register it with {@code ErrandBuilder.registerProcess} on every
 * node that creates the process, runs its batches or analyses its turns.
 *
 * @param <T> the item type
 */
public final class ProcessDefinition<T> {

    private final ProcessKind<T> kind;
    private final ProcessHandler<T> handler;
    private final RowMapper<T> rowMapper;

    private ProcessDefinition(ProcessKind<T> kind, ProcessHandler<T> handler) {
        this(kind, handler, null);
    }

    private ProcessDefinition(ProcessKind<T> kind, ProcessHandler<T> handler, RowMapper<T> rowMapper) {
        if (kind == null) {
            throw new IllegalArgumentException("kind must not be null: create one with ProcessKind.of(name, type)");
        }
        if (handler == null) {
            throw new IllegalArgumentException("handler of process '" + kind.name() + "' must not be null");
        }
        this.kind = kind;
        this.handler = handler;
        this.rowMapper = rowMapper;
    }

    /**
     * A process with custom turn logic: its handler runs the batches and analyses each turn.
     *
     * @throws IllegalArgumentException if an argument is null
     */
    public static <T> ProcessDefinition<T> of(ProcessKind<T> kind, ProcessHandler<T> handler) {
        return new ProcessDefinition<>(kind, handler);
    }

    /**
     * A process that handles one batch at a time and finishes once every batch has succeeded.
     *
     * @throws IllegalArgumentException if an argument is null
     */
    public static <T> ProcessDefinition<T> simple(ProcessKind<T> kind, BatchHandler<T> handler) {
        if (handler == null) {
            throw new IllegalArgumentException(
                    "handler of process '" + (kind == null ? null : kind.name()) + "' must not be null");
        }
        return new ProcessDefinition<>(kind, new ProcessHandler<>() {
            @Override
            public void execute(List<T> items, BatchContext context) throws Exception {
                handler.handle(items, context);
            }

            @Override
            public TurnDecision<T> analyse(TurnResult result, AnalysisContext context) {
                return TurnDecision.finish();
            }
        });
    }

    /**
     * This definition with a row mapper: a request built with {@link ProcessRequest.Builder#query(String, Object...)}
     * (a query without a mapper of its own) is then created on the cluster, where any node that registers this
     * definition reads the query a page at a time and maps each row with this mapper. A mapper is code, which the
     * database cannot store, so every node that may run the creation must register the same one.
     *
     * @throws IllegalArgumentException if the mapper is null
     */
    public ProcessDefinition<T> withRowMapper(RowMapper<T> mapper) {
        if (mapper == null) {
            throw new IllegalArgumentException("The row mapper of process '" + kind.name() + "' must not be null;"
                    + " pass one that maps the current row of the query to an item");
        }
        return new ProcessDefinition<>(kind, handler, mapper);
    }

    /** The row mapper for creations on the cluster, or {@code null} if none was given. */
    public RowMapper<T> rowMapper() {
        return rowMapper;
    }

    /** The kind. */
    public ProcessKind<T> kind() {
        return kind;
    }

    /** The name of the process. */
    public String name() {
        return kind.name();
    }

    /** The handler. */
    public ProcessHandler<T> handler() {
        return handler;
    }
}
