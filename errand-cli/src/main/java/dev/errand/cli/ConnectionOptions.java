package dev.errand.cli;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.config.TablePrefix;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Where Errand's tables are: the options every command that reads the database takes, or their variables. */
final class ConnectionOptions {

    @Spec(Spec.Target.MIXEE)
    private CommandSpec command;

    @Option(
            names = "--url",
            paramLabel = "JDBC-URL",
            defaultValue = "${env:ERRAND_URL}",
            description = "The database, such as jdbc:postgresql://db:5432/app, jdbc:mariadb://db:3306/app or"
                    + " jdbc:h2:tcp://localhost/~/app (default: $ERRAND_URL).")
    private String url;

    @Option(
            names = "--user",
            paramLabel = "NAME",
            defaultValue = "${env:ERRAND_USER}",
            description = "The database user (default: $ERRAND_USER).")
    private String user;

    @Option(
            names = "--password",
            paramLabel = "PASSWORD",
            defaultValue = "${env:ERRAND_PASSWORD}",
            showDefaultValue = Visibility.NEVER,
            description = "The database password (default: $ERRAND_PASSWORD, which keeps it out of the process"
                    + " list). Never printed.")
    private String password;

    @Option(
            names = "--table-prefix",
            paramLabel = "PREFIX",
            defaultValue = "${env:ERRAND_TABLE_PREFIX:-errand_}",
            description = "The prefix of Errand's tables, as the application configures it (default:"
                    + " $ERRAND_TABLE_PREFIX, else errand_).")
    private String tablePrefix;

    /** The table prefix. */
    String tablePrefix() {
        return tablePrefix;
    }

    /** Whether a database was named. */
    boolean hasUrl() {
        return url != null && !url.isBlank();
    }

    /**
     * A small pool to the database, checked with one connection.
     *
     * @throws ParameterException if no database was named
     * @throws CommandFailure if it cannot be reached
     */
    HikariDataSource connect() {
        if (!hasUrl()) {
            throw new ParameterException(
                    command.commandLine(), "Missing the database: give --url JDBC-URL or set ERRAND_URL");
        }
        Secrets.remember(password, url);
        // A bad prefix is a bad argument: refused before connecting.
        new TablePrefix(tablePrefix);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setPoolName("errand-cli");
        config.setMaximumPoolSize(2);
        // One try at once: a command must not wait for a database that is down.
        config.setInitializationFailTimeout(1);
        try {
            return new HikariDataSource(config);
        } catch (RuntimeException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new CommandFailure(
                    "cannot connect to " + url + (user == null ? "" : " as " + user) + ": " + cause.getMessage(), e);
        }
    }

    /**
     * A node on the database that only administers: it runs no task, applies no migration and is never started,
     * so that it neither registers in the node registry nor takes the leader lease.
     */
    static Errand adminNode(HikariDataSource dataSource, String tablePrefix) {
        return Errand.builder(dataSource)
                .tablePrefix(tablePrefix)
                .processingEnabled(false)
                .migrationsEnabled(false)
                .build();
    }
}
