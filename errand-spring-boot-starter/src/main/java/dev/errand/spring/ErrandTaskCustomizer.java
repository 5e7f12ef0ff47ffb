package dev.errand.spring;

import dev.errand.task.TaskDefinition;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Changes the options of task kinds that the starter registers: {@link ErrandTask} beans and
 * {@link PersistentRunnables}. Declare it as a bean; every customizer sees every such kind, in
 * {@code @Order}, after the annotation's options were applied. Kinds declared as {@code TaskDefinition}
 * beans are already built and are not customized.
 */
@FunctionalInterface
public interface ErrandTaskCustomizer {

    /**
     * Customizes one kind.
     *
     * @param kind the kind's name
     * @param definition the kind's builder; set its mode, retry policy, maximum attempts and so on
     */
    void customize(String kind, TaskDefinition.Builder<?> definition);

    /** A customizer that changes one kind only, for example {@code forKind("send-sms", d -> d.maxAttempts(3))}. */
    static ErrandTaskCustomizer forKind(String kind, Consumer<TaskDefinition.Builder<?>> customization) {
        Objects.requireNonNull(kind, "kind must not be null");
        Objects.requireNonNull(customization, "customization must not be null");
        return (candidate, definition) -> {
            if (kind.equals(candidate)) {
                customization.accept(definition);
            }
        };
    }
}
