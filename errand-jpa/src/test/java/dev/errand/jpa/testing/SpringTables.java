package dev.errand.jpa.testing;

import dev.errand.testkit.TestDatabase;
import javax.sql.DataSource;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.support.BeanDefinitionBuilder;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Points a Spring context at the shared PostgreSQL test database with a table prefix of its own (property
 * {@code test.table-prefix}, which {@link JpaDatabase.Prefixed} reads as a bean), and drops the prefix's
 * tables when the context closes: after the queues have stopped, before the pool closes.
 */
public final class SpringTables implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    private static final TestDatabase DATABASE = TestDatabase.POSTGRES;

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        String prefix = TestDatabase.newPrefix();
        TestPropertyValues.of(
                        "spring.datasource.url=" + DATABASE.url(),
                        "spring.datasource.username=" + DATABASE.userName(),
                        "spring.datasource.password=",
                        "spring.datasource.hikari.maximum-pool-size=8",
                        "test.table-prefix=" + prefix)
                .applyTo(context);
        ((BeanDefinitionRegistry) context.getBeanFactory())
                .registerBeanDefinition(
                        "errandJpaTestTables",
                        BeanDefinitionBuilder.genericBeanDefinition(Dropper.class)
                                .addConstructorArgValue(prefix)
                                .addConstructorArgReference("dataSource")
                                .getBeanDefinition());
    }

    /** Drops the prefix's tables when the context closes. */
    public record Dropper(String prefix, DataSource dataSource) implements DisposableBean {
        @Override
        public void destroy() {
            DATABASE.dropTables(prefix);
        }
    }
}
