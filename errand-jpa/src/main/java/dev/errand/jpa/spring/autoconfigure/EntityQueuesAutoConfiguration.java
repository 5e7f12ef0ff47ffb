package dev.errand.jpa.spring.autoconfigure;

import dev.errand.jpa.EntityQueues;
import dev.errand.jpa.EntityQueuesBuilder;
import dev.errand.jpa.queue.EntityQueueDefinition;
import dev.errand.jpa.spi.EntityTransactions;
import dev.errand.jpa.spring.EntityQueuesCustomizer;
import dev.errand.jpa.spring.EntityQueuesLifecycle;
import dev.errand.jpa.spring.SpringEntityTransactions;
import jakarta.persistence.EntityManagerFactory;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Auto-configures entity queues when the application has one {@link EntityManagerFactory} (Hibernate) and at
 * least one {@link EntityQueueDefinition} bean: {@link EntityTransactions} on the application's transaction
 * manager, {@link EntityQueues} built from the definitions, the {@code errand.jpa.*} properties and every
 * {@link EntityQueuesCustomizer}, and {@link EntityQueuesLifecycle}. Every bean backs off when the application
 * defines its own of the same type; {@code errand.jpa.enabled=false} turns all of it off.
 *
 * <p>It lives in errand-jpa rather than in the Spring Boot starter: errand-jpa needs no task table and no
 * {@code Errand} node, so an application may use entity queues without the starter, and the starter does not
 * carry an optional dependency on errand-jpa.
 */
@AutoConfiguration(afterName = "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration")
@ConditionalOnClass({EntityManagerFactory.class, JpaTransactionManager.class, EntityQueues.class})
@ConditionalOnSingleCandidate(EntityManagerFactory.class)
@ConditionalOnBean(EntityQueueDefinition.class)
@ConditionalOnBooleanProperty(name = "errand.jpa.enabled", matchIfMissing = true)
@EnableConfigurationProperties(ErrandJpaProperties.class)
public class EntityQueuesAutoConfiguration {

    /** Creates the auto-configuration; Spring calls it. */
    public EntityQueuesAutoConfiguration() {}

    /**
     * Runs the queues' transactions in the application's transaction manager, or in a
     * {@link JpaTransactionManager} of the factory if the application has none.
     *
     * @throws IllegalStateException if several transaction managers exist and none is primary
     */
    @Bean
    @ConditionalOnMissingBean
    public EntityTransactions errandEntityTransactions(
            EntityManagerFactory entityManagerFactory, ObjectProvider<PlatformTransactionManager> managers) {
        PlatformTransactionManager manager = managers.getIfUnique();
        if (manager == null) {
            List<PlatformTransactionManager> all = managers.stream().toList();
            if (!all.isEmpty()) {
                throw new IllegalStateException("Entity queues need one PlatformTransactionManager and the context"
                        + " has " + all.size() + " without a primary one: " + all + ". Mark the"
                        + " JpaTransactionManager of the queues' EntityManagerFactory @Primary, or define an"
                        + " EntityTransactions bean: new SpringEntityTransactions(transactionManager, factory)");
            }
            manager = new JpaTransactionManager(entityManagerFactory);
        }
        return new SpringEntityTransactions(manager, entityManagerFactory);
    }

    /**
     * The entity queues of every {@link EntityQueueDefinition} bean, with {@code errand.jpa.queues.<name>.*}
     * applied.
     *
     * @throws IllegalArgumentException if {@code errand.jpa.queues} names a queue that no definition declares,
     *     or a definition cannot be served (its message says what to change)
     */
    @Bean
    @ConditionalOnMissingBean
    public EntityQueues entityQueues(
            EntityManagerFactory entityManagerFactory,
            EntityTransactions transactions,
            ErrandJpaProperties properties,
            ObjectProvider<EntityQueueDefinition<?>> definitions,
            ObjectProvider<EntityQueuesCustomizer> customizers) {
        EntityQueuesBuilder builder = EntityQueues.builder(entityManagerFactory).transactions(transactions);
        properties.applyTo(builder);
        Set<String> names = new TreeSet<>();
        definitions.orderedStream().forEach(definition -> {
            names.add(definition.name());
            builder.register(properties.override(definition));
        });
        for (String configured : properties.getQueues().keySet()) {
            if (!names.contains(configured)) {
                throw new IllegalArgumentException("errand.jpa.queues." + configured + " names no entity queue; the"
                        + " queues are " + names + " (an EntityQueueDefinition bean declares each)");
            }
        }
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        return builder.build();
    }

    /** Starts the queues after the context has refreshed and stops them when it closes. */
    @Bean
    @ConditionalOnMissingBean
    public EntityQueuesLifecycle entityQueuesLifecycle(EntityQueues queues) {
        return new EntityQueuesLifecycle(queues);
    }
}
