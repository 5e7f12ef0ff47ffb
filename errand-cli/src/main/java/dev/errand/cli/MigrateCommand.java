package dev.errand.cli;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.ErrandSchema;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code errand migrate}: applies Errand's migrations, or prints their DDL for a DBA. */
@Command(
        name = "migrate",
        mixinStandardHelpOptions = true,
        description = {
            "Applies Errand's migrations to the database (those it does not have yet), as a node does at start-up.",
            "With --print --dialect, prints the DDL instead, without connecting: every script in version order,"
                    + " with the table prefix filled in."
        })
final class MigrateCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ConnectionOptions connection;

    @Mixin
    private Output output;

    @Option(names = "--print", description = "Print the DDL instead of applying it; needs --dialect.")
    private boolean print;

    @Option(
            names = "--dialect",
            paramLabel = "DIALECT",
            description = "The scripts to print: postgresql, mariadb, mysql or h2. When applying, the dialect is"
                    + " detected from the database.")
    private String dialect;

    @Override
    public Integer call() {
        if (print) {
            if (dialect == null) {
                throw new ParameterException(
                        spec.commandLine(), "--print needs --dialect: postgresql, mariadb, mysql or h2");
            }
            String ddl = ErrandSchema.ddl(dialect, connection.tablePrefix());
            if (output.json()) {
                var json = Output.object();
                json.put("dialect", dialect);
                json.put("tablePrefix", connection.tablePrefix());
                json.put("ddl", ddl);
                output.printJson(json);
            } else {
                output.out().print(ddl);
                output.out().flush();
            }
            return 0;
        }
        if (dialect != null) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--dialect chooses the scripts that --print prints; when applying, Errand detects the dialect"
                            + " from the database");
        }
        try (HikariDataSource dataSource = connection.connect()) {
            int applied = ErrandSchema.migrate(dataSource, connection.tablePrefix());
            if (output.json()) {
                var json = Output.object();
                json.put("applied", applied);
                json.put("tablePrefix", connection.tablePrefix());
                output.printJson(json);
            } else {
                output.out()
                        .println(
                                applied == 0
                                        ? "The schema is up to date (table prefix " + connection.tablePrefix() + ")."
                                        : "Applied " + applied + " migration" + (applied == 1 ? "" : "s")
                                                + " (table prefix " + connection.tablePrefix() + ").");
                output.out().flush();
            }
            return 0;
        }
    }
}
