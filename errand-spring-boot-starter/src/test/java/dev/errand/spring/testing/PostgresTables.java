package dev.errand.spring.testing;

import javax.sql.DataSource;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.support.BeanDefinitionBuilder;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Points a Spring context at the shared PostgreSQL database with a table prefix of its own, and drops
 * that prefix's tables when the context closes: after the Errand node has stopped (lifecycle stop comes
 * before bean destruction) and before the pool closes (the dropper depends on the DataSource).
 */
public final class PostgresTables implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    /** The bean name of the dropper, whose {@link Dropper#prefix()} tells a test its prefix. */
    public static final String BEAN_NAME = "errandTestTables";

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        String prefix = TestDatabase.newPrefix();
        TestPropertyValues.of(TestDatabase.properties(prefix)).applyTo(context);
        ((BeanDefinitionRegistry) context.getBeanFactory()).registerBeanDefinition(BEAN_NAME,
                BeanDefinitionBuilder.genericBeanDefinition(Dropper.class)
                        .addConstructorArgValue(prefix)
                        .addConstructorArgReference("dataSource")
                        .getBeanDefinition());
    }

    /** Drops the prefix's tables on close. */
    public record Dropper(String prefix, DataSource dataSource) implements DisposableBean {
        @Override
        public void destroy() {
            TestDatabase.dropTables(prefix);
        }
    }
}
