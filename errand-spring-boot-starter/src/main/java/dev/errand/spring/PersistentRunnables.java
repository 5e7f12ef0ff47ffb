package dev.errand.spring;

import dev.errand.task.TaskKind;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Declares {@link Runnable} classes that {@link ErrandTaskExecutor} persists as tasks. Declare one or more
 * as beans:
 *
 * <pre>{@code
 * @Bean
 * PersistentRunnables persistentRunnables() {
 *     return PersistentRunnables.of(SendReport.class).and("rebuild-index", RebuildIndex.class);
 * }
 * }</pre>
 *
 * <p>Each class becomes a task kind: by default its fully qualified class name, or the name given with
 * {@link #and(String, Class)}. A runnable is stored as the JSON of its properties (Jackson: public fields,
 * getters, or annotated fields); it needs at least one. On a worker it is decoded into a new instance,
 * its {@code @Autowired} fields and methods are injected from the application context, and
 * {@link Runnable#run()} is called inside the task's transaction. Keep injected fields out of the JSON:
 * make them non-public without getters. Immutable.
 */
public final class PersistentRunnables {

    private final Map<Class<? extends Runnable>, String> kinds;

    private PersistentRunnables(Map<Class<? extends Runnable>, String> kinds) {
        this.kinds = Collections.unmodifiableMap(kinds);
    }

    /**
     * Declares runnable classes, each under its fully qualified class name as kind.
     *
     * @throws IllegalArgumentException if a class is null, or its name is not a valid kind
     */
    @SafeVarargs
    public static PersistentRunnables of(Class<? extends Runnable>... types) {
        PersistentRunnables runnables = new PersistentRunnables(new LinkedHashMap<>());
        for (Class<? extends Runnable> type : Objects.requireNonNull(types, "types must not be null")) {
            runnables = runnables.and(type);
        }
        return runnables;
    }

    /** A copy that also declares {@code type}, under its fully qualified class name as kind. */
    public PersistentRunnables and(Class<? extends Runnable> type) {
        if (type == null) {
            throw new IllegalArgumentException("Persistent runnable class must not be null");
        }
        return and(type.getName(), type);
    }

    /**
     * A copy that also declares {@code type} under {@code kind}.
     *
     * @throws IllegalArgumentException if the class is null or already declared here, or the kind is invalid
     */
    public PersistentRunnables and(String kind, Class<? extends Runnable> type) {
        if (type == null) {
            throw new IllegalArgumentException("Persistent runnable class must not be null");
        }
        TaskKind.requireValidName(kind);
        if (kinds.containsKey(type)) {
            throw new IllegalArgumentException(
                    type.getName() + " is already declared as persistent runnable kind '" + kinds.get(type) + "'");
        }
        Map<Class<? extends Runnable>, String> copy = new LinkedHashMap<>(kinds);
        copy.put(type, kind);
        return new PersistentRunnables(copy);
    }

    /** The declared classes and their kinds, in declaration order. */
    public Map<Class<? extends Runnable>, String> kinds() {
        return kinds;
    }
}
