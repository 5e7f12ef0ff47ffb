package dev.errand.process;

import java.util.List;

/**
 * A process a node can run: its kind and its handler. Register it with {@code ErrandBuilder.registerProcess} on
 * every node that runs its batches or analyses its turns.
 *
 * @param <T> the item type
 */
public final class ProcessDefinition<T> {

    private final ProcessKind<T> kind;
    private final ProcessHandler<T> handler;

    private ProcessDefinition(ProcessKind<T> kind, ProcessHandler<T> handler) {
        if (kind == null) {
            throw new IllegalArgumentException("kind must not be null: create one with ProcessKind.of(name, type)");
        }
        if (handler == null) {
            throw new IllegalArgumentException("handler of process '" + kind.name() + "' must not be null");
        }
        this.kind = kind;
        this.handler = handler;
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
