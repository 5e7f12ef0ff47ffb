package dev.errand.spring.autoconfigure;

import dev.errand.Errand;
import dev.errand.spring.ErrandClient;
import dev.errand.spring.ErrandConfigurationException;
import dev.errand.spring.ErrandTaskExecutor;
import dev.errand.spring.PersistentRunnables;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Fallback;
import org.springframework.core.task.TaskExecutor;

/**
 * Registers {@link ErrandTaskExecutor} as bean {@code errandTaskExecutor} when the application declares
 * {@link PersistentRunnables} and {@code errand.task-executor.enabled} is not false.
 *
 * <p>It runs after Spring Boot's task execution auto-configuration, whose {@code applicationTaskExecutor}
 * backs off as soon as any {@code Executor} bean exists: so that one is registered first and stays, and
 * {@code @Async} keeps running in memory. The Errand executor is a {@link Fallback} bean: an injection
 * point of type {@code TaskExecutor} or {@code Executor} keeps getting Spring Boot's, and one of type
 * {@link ErrandTaskExecutor} gets this one.
 */
@AutoConfiguration(
        after = ErrandAutoConfiguration.class,
        afterName = "org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration")
@ConditionalOnClass(TaskExecutor.class)
@ConditionalOnBean({ErrandClient.class, PersistentRunnables.class})
@ConditionalOnBooleanProperty(name = "errand.task-executor.enabled", matchIfMissing = true)
public class ErrandTaskExecutorAutoConfiguration {

    /** Creates the auto-configuration; Spring calls it. */
    public ErrandTaskExecutorAutoConfiguration() {}

    /**
     * The persistent executor for every declared runnable class.
     *
     * @throws ErrandConfigurationException if {@code errand.task-executor.queue} is not a declared queue
     */
    @Bean
    @Fallback
    @ConditionalOnMissingBean
    public ErrandTaskExecutor errandTaskExecutor(
            Errand errand,
            ErrandClient client,
            ObjectProvider<PersistentRunnables> runnables,
            ErrandProperties properties) {
        String queue = properties.getTaskExecutor().getQueue();
        if (!errand.settings().queues().containsKey(queue)) {
            throw new ErrandConfigurationException(
                    "errand.task-executor.queue is '" + queue + "', but this node" + " declares only the queues "
                            + errand.settings().queues().keySet() + ".",
                    "Declare it, for example errand.queues." + queue + ".concurrency=4, or set"
                            + " errand.task-executor.queue to one of the declared queues.");
        }
        Map<Class<? extends Runnable>, String> kinds = new LinkedHashMap<>();
        runnables.orderedStream().forEach(declared -> kinds.putAll(declared.kinds()));
        return new ErrandTaskExecutor(client, kinds, queue);
    }
}
