package dev.errand.spring.testing;

import dev.errand.testkit.TestDatabase;
import javax.sql.DataSource;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.support.BeanDefinitionBuilder;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Points a Spring context at one of the shared test databases with a table prefix of its own, and drops
 * that prefix's tables when the context closes: after the Errand node has stopped (lifecycle stop comes
 * before bean destruction) and before the pool closes (the dropper depends on the DataSource).
 */
public abstract class DatabaseTables implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    /** The bean name of the dropper, whose {@link Dropper#prefix()} tells a test its prefix. */
    public static final String BEAN_NAME = "errandTestTables";

    private final TestDatabase database;

    /** Creates the initializer for {@code database}. */
    protected DatabaseTables(TestDatabase database) {
        this.database = database;
    }

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        String prefix = TestDatabase.newPrefix();
        TestPropertyValues.of(database.springProperties(prefix)).applyTo(context);
        ((BeanDefinitionRegistry) context.getBeanFactory())
                .registerBeanDefinition(
                        BEAN_NAME,
                        BeanDefinitionBuilder.genericBeanDefinition(Dropper.class)
                                .addConstructorArgValue(database)
                                .addConstructorArgValue(prefix)
                                .addConstructorArgReference("dataSource")
                                .getBeanDefinition());
    }

    /** Drops the prefix's tables on close. */
    public record Dropper(TestDatabase database, String prefix, DataSource dataSource) implements DisposableBean {
        @Override
        public void destroy() {
            database.dropTables(prefix);
        }
    }
}
