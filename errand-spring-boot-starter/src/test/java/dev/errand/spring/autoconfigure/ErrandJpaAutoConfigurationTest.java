package dev.errand.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.spi.TransactionRunner;
import dev.errand.spring.SpringTransactionRunner;
import dev.errand.spring.testing.PostgresTables;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.orm.jpa.JpaTransactionManager;

/** The JPA start-up check warns when a handler's JPA writes would not join the task's transaction. */
@ExtendWith(OutputCaptureExtension.class)
class ErrandJpaAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    HibernateJpaAutoConfiguration.class,
                    TransactionAutoConfiguration.class,
                    ErrandAutoConfiguration.class,
                    ErrandJpaAutoConfiguration.class))
            .withInitializer(new PostgresTables())
            .withPropertyValues("errand.migrations-enabled=false", "errand.processing-enabled=false");

    @Configuration(proxyBeanMethods = false)
    static class PlainJdbcRunner {
        @Bean
        TransactionRunner transactionRunner(DataSource dataSource) {
            return new SpringTransactionRunner(new DataSourceTransactionManager(dataSource));
        }
    }

    @Test
    void staysQuietWithSpringBootsJpaTransactionManager(CapturedOutput output) {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(((SpringTransactionRunner) context.getBean(TransactionRunner.class)).transactionManager())
                    .isInstanceOf(JpaTransactionManager.class);
        });
        assertThat(output).doesNotContain("will not join the task's transaction");
    }

    @Test
    void warnsWhenHandlersRunOutsideTheJpaTransactionManager(CapturedOutput output) {
        runner.withUserConfiguration(PlainJdbcRunner.class)
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(output).contains("not a JpaTransactionManager", "will not join the task's transaction");
    }
}
