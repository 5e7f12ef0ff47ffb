package dev.errand.spring.autoconfigure;

import dev.errand.Errand;
import dev.errand.spi.TransactionRunner;
import dev.errand.spring.SpringTransactionRunner;
import jakarta.persistence.EntityManagerFactory;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.orm.jpa.JpaTransactionManager;

/**
 * JPA support: checks at start-up that the transaction manager Errand's handlers run in lets JPA writes
 * join the transaction that completes the task. That needs a {@link JpaTransactionManager} that exposes its
 * JDBC connection for Errand's DataSource (Spring Boot's default does). Otherwise a handler's entity
 * changes would commit apart from the task, or fail outside a transaction, and start-up logs a warning
 * that says why.
 */
@AutoConfiguration(
        after = ErrandAutoConfiguration.class,
        afterName = "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration")
@ConditionalOnClass({EntityManagerFactory.class, JpaTransactionManager.class})
@ConditionalOnBean({Errand.class, EntityManagerFactory.class})
public class ErrandJpaAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ErrandJpaAutoConfiguration.class);

    /** Creates the auto-configuration; Spring calls it. */
    public ErrandJpaAutoConfiguration() {}

    /** Logs a warning at start-up if JPA writes of handlers would not join the task's transaction. */
    @Bean
    public static SmartInitializingSingleton errandJpaTransactionCheck(
            ObjectProvider<TransactionRunner> runner, ObjectProvider<DataSource> dataSource) {
        return () -> {
            if (!(runner.getIfAvailable() instanceof SpringTransactionRunner spring)) {
                return;
            }
            DataSource errandDataSource = dataSource.getIfUnique();
            if (!(spring.transactionManager() instanceof JpaTransactionManager jpa)) {
                log.warn(
                        "Errand runs transactional handlers with {}, not a JpaTransactionManager, although JPA is in"
                                + " use: JPA repositories called by a handler will not join the task's transaction."
                                + " Define a TransactionRunner bean on your JpaTransactionManager if handlers use JPA.",
                        spring.transactionManager().getClass().getName());
                return;
            }
            if (errandDataSource != null && !sameDataSource(jpa.getDataSource(), errandDataSource)) {
                log.warn(
                        "The JpaTransactionManager exposes its JDBC connection for {} and Errand uses {}: a handler's"
                                + " JPA writes and the task's completion will not share one transaction. Set the"
                                + " JpaTransactionManager's dataSource to Errand's DataSource.",
                        jpa.getDataSource(),
                        errandDataSource);
            }
        };
    }

    private static boolean sameDataSource(DataSource jpa, DataSource errand) {
        DataSource candidate = jpa;
        while (candidate != null) {
            if (candidate == errand) {
                return true;
            }
            candidate = candidate instanceof DelegatingDataSource delegating ? delegating.getTargetDataSource() : null;
        }
        return false;
    }
}
