package dev.errand.jpa.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.jpa.EntityQueues;
import dev.errand.jpa.queue.EntityQueueDefinition;
import dev.errand.jpa.spi.EntityTransactions;
import dev.errand.jpa.spring.autoconfigure.EntityQueuesAutoConfiguration;
import dev.errand.jpa.testing.Message;
import jakarta.persistence.EntityManagerFactory;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.persistence.autoconfigure.EntityScan;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * When the auto-configuration applies, how it backs off, and how bad {@code errand.jpa.*} values stop
 * start-up with a message that names the property; on an H2 database of each context's own.
 */
class EntityQueuesAutoConfigurationTest {

    @Configuration(proxyBeanMethods = false)
    @EntityScan(basePackageClasses = Message.class)
    static class Entities {}

    @Configuration(proxyBeanMethods = false)
    static class SendQueue {
        @Bean
        EntityQueueDefinition<Message> sending() {
            return EntityQueueDefinition.builder(Message.class, "sendState", (message, context) -> message.sent())
                    .name("send")
                    .build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnQueues {
        @Bean
        EntityQueues myQueues(EntityManagerFactory factory) {
            return EntityQueues.builder(factory)
                    .nodeId("mine")
                    .register(EntityQueueDefinition.builder(Message.class, "crmState", (message, context) -> {})
                            .build())
                    .build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Customized {
        @Bean
        EntityQueuesCustomizer nodeName() {
            return builder -> builder.nodeId("customized");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class JdbcOnlyTransactions {
        @Bean
        PlatformTransactionManager transactionManager(DataSource dataSource) {
            return new DataSourceTransactionManager(dataSource);
        }
    }

    private static ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataSourceAutoConfiguration.class,
                        HibernateJpaAutoConfiguration.class,
                        TransactionAutoConfiguration.class,
                        EntityQueuesAutoConfiguration.class))
                .withUserConfiguration(Entities.class)
                .withPropertyValues(
                        "spring.datasource.url=jdbc:h2:mem:jpa-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                        "spring.jpa.hibernate.ddl-auto=create-drop",
                        "errand.jpa.index-check=false");
    }

    @Test
    void withoutAQueueDefinitionNothingIsConfigured() {
        runner().run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(EntityQueues.class);
            assertThat(context).doesNotHaveBean(EntityQueuesLifecycle.class);
        });
    }

    @Test
    void aQueueDefinitionGetsQueuesOnSpringTransactionsThatRunWithTheContext() {
        runner().withUserConfiguration(SendQueue.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(EntityTransactions.class)).isInstanceOf(SpringEntityTransactions.class);
            EntityQueues queues = context.getBean(EntityQueues.class);
            assertThat(queues.queue("send", Message.class).definition().concurrency())
                    .isEqualTo(4);
            assertThat(queues.isRunning()).isTrue();
        });
    }

    @Test
    void itIsOffWithErrandJpaEnabledFalse() {
        runner().withUserConfiguration(SendQueue.class)
                .withPropertyValues("errand.jpa.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(EntityQueues.class));
    }

    @Test
    void itBacksOffFromTheApplicationsOwnQueuesAndAppliesCustomizers() {
        runner().withUserConfiguration(SendQueue.class, OwnQueues.class).run(context -> {
            assertThat(context).hasSingleBean(EntityQueues.class);
            assertThat(context.getBean(EntityQueues.class).nodeId()).isEqualTo("mine");
            assertThat(context.getBean(EntityQueues.class).isRunning()).isTrue();
        });
        runner().withUserConfiguration(SendQueue.class, Customized.class)
                .run(context ->
                        assertThat(context.getBean(EntityQueues.class).nodeId()).isEqualTo("customized"));
    }

    @Test
    void invalidPropertiesStopStartUpNamingTheProperty() {
        runner().withUserConfiguration(SendQueue.class)
                .withPropertyValues("errand.jpa.lease-duration=10ms")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("errand.jpa.lease-duration must be between 1s and 1d, got 10ms"));
        runner().withUserConfiguration(SendQueue.class)
                .withPropertyValues("errand.jpa.queues.send.concurrency=0")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("errand.jpa.queues.send.concurrency must be between 1 and 1000, got 0"));
        runner().withUserConfiguration(SendQueue.class)
                .withPropertyValues("errand.jpa.queues.mail.concurrency=2")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("errand.jpa.queues.mail names no entity queue; the queues are [send]"));
    }

    @Test
    void aTransactionManagerThatJpaCannotJoinStopsStartUp() {
        runner().withUserConfiguration(SendQueue.class, JdbcOnlyTransactions.class)
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("need a transaction manager of the EntityManagerFactory"));
    }
}
