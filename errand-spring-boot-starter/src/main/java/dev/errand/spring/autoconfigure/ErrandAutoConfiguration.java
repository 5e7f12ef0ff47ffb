package dev.errand.spring.autoconfigure;

import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.process.ProcessDefinition;
import dev.errand.schedule.Schedule;
import dev.errand.spi.PayloadCodec;
import dev.errand.spi.TaskListener;
import dev.errand.spi.TaskTracing;
import dev.errand.spi.TransactionRunner;
import dev.errand.spring.ErrandBuilderCustomizer;
import dev.errand.spring.ErrandClient;
import dev.errand.spring.ErrandConfigurationException;
import dev.errand.spring.ErrandLifecycle;
import dev.errand.spring.ErrandTaskCustomizer;
import dev.errand.spring.ErrandTasks;
import dev.errand.spring.SpringTransactionRunner;
import dev.errand.spring.TaskStatistics;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Auto-configures an Errand node on the application's DataSource, when there is one DataSource (or a
 * primary one). Every bean backs off when the application defines its own of the same type.
 *
 * <ul>
 *   <li>{@link ErrandTasks}: the kinds of {@code @ErrandTask} beans and methods, {@code TaskDefinition} beans and
 *       {@code PersistentRunnables}, customized by {@link ErrandTaskCustomizer} beans;</li>
 *   <li>{@link TransactionRunner}: a {@link SpringTransactionRunner} on the application's
 *       {@code PlatformTransactionManager};</li>
 *   <li>{@link Errand}: built from the {@code errand.*} properties, the kinds, the transaction runner, every
 *       {@link TaskListener} bean, the {@link TaskTracing} and {@link PayloadCodec} bean when there is one, then
 *       the {@link ErrandBuilderCustomizer}s;</li>
 *   <li>{@link ErrandLifecycle}, {@link ErrandClient} and {@link TaskStatistics}.</li>
 * </ul>
 */
@AutoConfiguration(
        afterName = {
            "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
            "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration",
            "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration"
        })
@ConditionalOnClass({Errand.class, DataSource.class})
@ConditionalOnSingleCandidate(DataSource.class)
@ConditionalOnBooleanProperty(name = "errand.enabled", matchIfMissing = true)
@EnableConfigurationProperties(ErrandProperties.class)
@ImportRuntimeHints(ErrandRuntimeHints.class)
public class ErrandAutoConfiguration {

    /** Creates the auto-configuration; Spring calls it. */
    public ErrandAutoConfiguration() {}

    /** The task kinds found in the context. */
    @Bean
    @ConditionalOnMissingBean
    public ErrandTasks errandTasks(
            ConfigurableListableBeanFactory beanFactory,
            Environment environment,
            ObjectProvider<ErrandTaskCustomizer> customizers,
            ObjectProvider<PayloadCodec> payloadCodec,
            ErrandProperties properties) {
        List<ErrandTaskCustomizer> ordered = customizers.orderedStream().toList();
        // The codec the node will use: payload types of handler methods are checked against its mapper.
        PayloadCodec codec = payloadCodec.getIfAvailable(PayloadCodec::new);
        return new ErrandTaskDiscovery(
                        beanFactory,
                        environment,
                        ordered,
                        codec,
                        properties.getFlow().getKinds())
                .discover();
    }

    /**
     * Runs transactional handlers in transactions of the application's transaction manager, or of a
     * {@link DataSourceTransactionManager} on the DataSource if the application has none.
     *
     * @throws ErrandConfigurationException if several transaction managers exist and none is primary
     */
    @Bean
    @ConditionalOnMissingBean
    public TransactionRunner errandTransactionRunner(
            DataSource dataSource, ObjectProvider<PlatformTransactionManager> transactionManagers) {
        PlatformTransactionManager transactionManager = transactionManagers.getIfUnique();
        if (transactionManager == null) {
            List<String> candidates =
                    transactionManagers.stream().map(Object::toString).toList();
            if (!candidates.isEmpty()) {
                throw new ErrandConfigurationException(
                        "Errand needs one PlatformTransactionManager for its"
                                + " transactional handlers, and the context has " + candidates.size()
                                + " without a primary: "
                                + candidates + ".",
                        "Mark the one that manages Errand's DataSource @Primary, or define a"
                                + " TransactionRunner bean, for example new SpringTransactionRunner(yourTransactionManager).");
            }
            transactionManager = new DataSourceTransactionManager(dataSource);
        }
        return new SpringTransactionRunner(transactionManager);
    }

    /**
     * The Errand node. Building it applies Errand's migrations unless {@code errand.migrations-enabled=false}.
     *
     * @throws ErrandConfigurationException if {@code errand.dialect} is set and the node cannot start with it
     */
    @Bean
    @ConditionalOnMissingBean
    public Errand errand(
            DataSource dataSource,
            ErrandProperties properties,
            ErrandTasks tasks,
            TransactionRunner transactionRunner,
            ObjectProvider<TaskListener> listeners,
            ObjectProvider<TaskTracing> tracing,
            ObjectProvider<PayloadCodec> payloadCodec,
            ObjectProvider<ErrandBuilderCustomizer> customizers,
            ObjectProvider<Schedule> schedules,
            ObjectProvider<ProcessDefinition<?>> processes) {
        ErrandBuilder builder = Errand.builder(dataSource);
        properties.applyTo(builder);
        tasks.definitions().forEach(builder::register);
        properties.buildSchedules().forEach(builder::schedule);
        tasks.schedules().forEach(builder::schedule);
        schedules.orderedStream().forEach(builder::schedule);
        processes.orderedStream().forEach(builder::registerProcess);
        builder.transactionRunner(transactionRunner);
        listeners.orderedStream().forEach(builder::listener);
        tracing.ifUnique(builder::tracing);
        payloadCodec.ifAvailable(builder::payloadCodec);
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        try {
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw new ErrandConfigurationException(
                    "Errand cannot start: " + e.getMessage() + ".",
                    "Fix what the"
                            + " message names: a schedule's kind must be registered here (with @ErrandTask), and the errand.*"
                            + " settings must agree with each other.");
        } catch (IllegalStateException e) {
            if (properties.getDialect() == null || e instanceof ErrandConfigurationException) {
                throw e;
            }
            // A dialect set by hand that does not fit the database fails in the migrations or the first query.
            throw new ErrandConfigurationException(
                    "Errand could not start on the database with errand.dialect=" + properties.getDialect() + ": "
                            + e.getMessage(),
                    "Check that errand.dialect names the database"
                            + " behind the DataSource (postgresql, mariadb, mysql or h2), or remove errand.dialect to detect"
                            + " it from the JDBC metadata.");
        }
    }

    /** Starts the node after the context has refreshed and stops it when the context closes. */
    @Bean
    @ConditionalOnMissingBean
    public ErrandLifecycle errandLifecycle(Errand errand) {
        return new ErrandLifecycle(errand);
    }

    /** Enqueues tasks, joining Spring-managed transactions. */
    @Bean
    @ConditionalOnMissingBean
    public ErrandClient errandClient(Errand errand, DataSource dataSource, ErrandProperties properties) {
        return new ErrandClient(errand, dataSource, properties.getEnqueue().isRequireTransaction());
    }

    /** Task counts for health, endpoint and gauges, cached for {@code errand.stats.cache-duration}. */
    @Bean
    @ConditionalOnMissingBean
    public TaskStatistics errandTaskStatistics(Errand errand, ErrandProperties properties) {
        return new TaskStatistics(
                errand.admin(),
                properties.getStats().getCacheDuration(),
                properties.getStats().getOverdueAfter());
    }
}
