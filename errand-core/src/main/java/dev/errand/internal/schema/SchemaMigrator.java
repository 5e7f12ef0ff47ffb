package dev.errand.internal.schema;

import dev.errand.config.TablePrefix;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.migration.JavaMigration;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Applies Errand's migrations with Flyway, recording them in Errand's own history table
 * ({@code <prefix>schema_history}) so that the application's Flyway history is never touched.
 *
 * <p>The scripts live in the jar under {@code dev/errand/schema/<dialect>/} and use the placeholder
 * {@code ${prefix}}; teams that run DDL themselves can apply them with the prefix substituted.
 */
public final class SchemaMigrator {

    private final DataSource dataSource;
    private final TablePrefix prefix;
    private final String dialectFolder;
    private final String historyTable;
    private final boolean dialectOverridden;

    /**
     * Creates a migrator.
     *
     * @param dataSource where to migrate
     * @param prefix the table prefix
     * @param dialectFolder the script folder of the dialect, such as {@code postgresql} or {@code h2}
     * @param historyTable the history table's name, in the case the database stores unquoted names
     * @param dialectOverridden whether the dialect was set by hand instead of detected, so that a failure
     *     can point at that setting
     */
    public SchemaMigrator(
            DataSource dataSource,
            TablePrefix prefix,
            String dialectFolder,
            String historyTable,
            boolean dialectOverridden) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.prefix = Objects.requireNonNull(prefix, "prefix");
        this.dialectFolder = Objects.requireNonNull(dialectFolder, "dialectFolder");
        this.historyTable = Objects.requireNonNull(historyTable, "historyTable");
        this.dialectOverridden = dialectOverridden;
    }

    /** Migrations that SQL alone cannot express, for this dialect. */
    private JavaMigration[] javaMigrations() {
        return "h2".equals(dialectFolder) ? new JavaMigration[] {new H2SessionFreeChecks()} : new JavaMigration[0];
    }

    /**
     * Applies every pending migration.
     *
     * @return how many migrations ran
     * @throws IllegalStateException if a migration fails
     */
    public int migrate() {
        ClassLoader classLoader = SchemaMigrator.class.getClassLoader();
        Flyway flyway = Flyway.configure(classLoader)
                .dataSource(dataSource)
                .locations("classpath:dev/errand/schema/" + dialectFolder)
                // The scripts by name and the Java migrations below, no class-path scan: a native image has none.
                .resourceProvider(new ListedScripts(dialectFolder, classLoader))
                .javaMigrationClassProvider(List::of)
                .table(historyTable)
                .placeholders(Map.of("prefix", prefix.value()))
                // The application's schema is usually not empty; Errand's history starts at 0 there.
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .javaMigrations(javaMigrations())
                .load();
        try {
            MigrateResult result = flyway.migrate();
            return result.migrationsExecuted;
        } catch (FlywayException e) {
            String hint = dialectOverridden
                    ? " The dialect was set by hand (ErrandBuilder.dialect, or errand.dialect"
                            + " in Spring Boot) to the scripts of '" + dialectFolder
                            + "': if the database is another one,"
                            + " remove that setting and let Errand detect it."
                    : "";
            if (String.valueOf(e.getMessage()).contains("prepared statement")) {
                hint += " A prepared statement went missing: if the data source goes through a connection pooler in"
                        + " transaction mode (PgBouncer), add prepareThreshold=0 to its JDBC URL (docs/DEPLOYMENT.md).";
            }
            throw new IllegalStateException(
                    "Errand could not apply its migrations (dialect " + dialectFolder
                            + ", table prefix '" + prefix.value() + "', history table " + historyTable + "): "
                            + e.getMessage() + "." + hint
                            + " Fix the database, or set migrationsEnabled(false) and run the"
                            + " scripts under dev/errand/schema/" + dialectFolder + "/ yourself",
                    e);
        }
    }
}
