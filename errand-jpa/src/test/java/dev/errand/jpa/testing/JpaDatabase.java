package dev.errand.jpa.testing;

import dev.errand.testkit.TestDatabase;
import jakarta.persistence.EntityManagerFactory;
import java.util.List;
import javax.sql.DataSource;
import org.hibernate.boot.model.naming.Identifier;
import org.hibernate.boot.model.naming.PhysicalNamingStrategyStandardImpl;
import org.hibernate.engine.jdbc.env.spi.JdbcEnvironment;
import org.hibernate.jpa.HibernatePersistenceConfiguration;

/**
 * Hibernate on a real test database, with every entity table (and index) under a prefix of its own, so
 * that runs on the shared servers never collide. Hibernate creates the tables.
 */
public final class JpaDatabase {

    private JpaDatabase() {}

    /** An entity manager factory on {@code dataSource} that creates its tables, which start with {@code prefix}. */
    public static EntityManagerFactory create(DataSource dataSource, String prefix, List<Class<?>> entities) {
        return create(dataSource, prefix, entities, "create");
    }

    /**
     * An entity manager factory on {@code dataSource} whose tables start with {@code prefix}, with Hibernate's
     * schema action {@code ddl} ({@code create}, or {@code none} for tables another process made).
     */
    public static EntityManagerFactory create(
            DataSource dataSource, String prefix, List<Class<?>> entities, String ddl) {
        return new HibernatePersistenceConfiguration("errand-jpa-test")
                .managedClasses(entities)
                .property("hibernate.connection.datasource", dataSource)
                .property("hibernate.hbm2ddl.auto", ddl)
                .property("hibernate.physical_naming_strategy", new Prefixed(prefix))
                .createEntityManagerFactory();
    }

    /** The same on a test database's shared pool. */
    public static EntityManagerFactory create(TestDatabase database, String prefix, List<Class<?>> entities) {
        return create(database.dataSource(), prefix, entities);
    }

    /** Puts a prefix in front of every table and index name. */
    public static final class Prefixed extends PhysicalNamingStrategyStandardImpl {
        private static final long serialVersionUID = 1L;

        private final String prefix;

        public Prefixed(String prefix) {
            this.prefix = prefix;
        }

        @Override
        public Identifier toPhysicalTableName(Identifier name, JdbcEnvironment environment) {
            return Identifier.toIdentifier(prefix + name.getText());
        }
    }
}
