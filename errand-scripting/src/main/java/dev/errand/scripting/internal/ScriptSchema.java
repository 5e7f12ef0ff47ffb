package dev.errand.scripting.internal;

import dev.errand.config.TablePrefix;
import java.util.Map;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

/**
 * Applies the script table's migrations with Flyway, recorded in a history table of scripting's own
 * ({@code <prefix>script_schema_history}), apart from both the application's Flyway history and Errand's core
 * history. The scripts are under {@code dev/errand/scripting/schema/<dialect>/} in the jar, with the placeholder
 * {@code ${prefix}}, for teams that run the DDL themselves.
 */
public final class ScriptSchema {

    /** The folder of the migrations in the jar, before the dialect's folder. */
    public static final String LOCATION = "dev/errand/scripting/schema/";

    private ScriptSchema() {}

    /** The name of scripting's Flyway history table. */
    public static String historyTable(TablePrefix prefix) {
        return prefix.value() + "script_schema_history";
    }

    /**
     * Applies every pending migration.
     *
     * @return how many ran
     * @throws IllegalStateException if a migration fails
     */
    public static int migrate(DataSource dataSource, TablePrefix prefix, ScriptDialect dialect) {
        Flyway flyway = Flyway.configure(ScriptSchema.class.getClassLoader())
                .dataSource(dataSource)
                .locations("classpath:" + LOCATION + dialect.folder())
                .table(dialect.unquoted(historyTable(prefix)))
                .placeholders(Map.of("prefix", prefix.value()))
                // The schema holds the application's and Errand's tables: scripting's history starts at 0 there.
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .load();
        try {
            return flyway.migrate().migrationsExecuted;
        } catch (FlywayException e) {
            throw new IllegalStateException(
                    "Errand scripting could not apply its migrations (dialect " + dialect.folder() + ", table prefix '"
                            + prefix.value() + "', history table " + historyTable(prefix) + "): " + e.getMessage()
                            + ". Fix the database, or turn the migrations off (ScriptingOptions.migrationsEnabled"
                            + "(false)) and run the scripts under " + LOCATION + dialect.folder() + "/ yourself",
                    e);
        }
    }
}
