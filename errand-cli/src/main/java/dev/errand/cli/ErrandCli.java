package dev.errand.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * The {@code errand} command: Errand's schema and admin API from a shell. Exit codes: 0 when the command did what
 * it was asked, 1 when it could not (the database failed, a task was not in a state that allows the action), 2
 * for bad arguments, with the usage on stderr.
 */
@Command(
        name = "errand",
        mixinStandardHelpOptions = true,
        versionProvider = ErrandCli.Version.class,
        description = "Administers Errand's tasks in a database: schema, tasks, schedules, nodes and events.",
        subcommands = {
            MigrateCommand.class,
            TasksCommand.class,
            SchedulesCommand.class,
            NodesCommand.class,
            EventsCommand.class,
            CommandLine.HelpCommand.class
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:done",
            "1:the command failed (database error, a task not in a state that allows the action, nothing found)",
            "2:bad arguments; the usage is printed to stderr"
        },
        footerHeading = "%nEnvironment:%n",
        footer = {"  ERRAND_URL, ERRAND_USER, ERRAND_PASSWORD, ERRAND_TABLE_PREFIX stand in for the connection options."
        })
public final class ErrandCli implements Runnable {

    /** The exit code of a command that could not do what it was asked. */
    static final int FAILED = 1;

    @Spec
    private CommandSpec spec;

    /**
     * Runs the command and exits with its code.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        // Before any logger exists: SLF4J's simple logger reads its level once.
        Logging.configure(Arrays.asList(args).contains("--verbose"));
        PrintWriter out = utf8(FileDescriptor.out);
        PrintWriter err = utf8(FileDescriptor.err);
        int code = execute(out, err, args);
        out.flush();
        err.flush();
        System.exit(code);
    }

    /**
     * Runs the command, writing to the given streams.
     *
     * @return the exit code
     */
    static int execute(PrintWriter out, PrintWriter err, String... args) {
        CommandLine commandLine = new CommandLine(new ErrandCli());
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setExecutionExceptionHandler(ErrandCli::failed);
        return commandLine.execute(args);
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing the command: name one of the commands below");
    }

    /**
     * What a command threw: a bad argument the core refused is a usage error (2); anything else failed the
     * command (1), and is told in one line unless {@code --verbose} asks for the stack trace.
     */
    private static int failed(Exception e, CommandLine command, ParseResult parsed) throws Exception {
        if (e instanceof IllegalArgumentException) {
            return command.getParameterExceptionHandler()
                    .handleParseException(
                            new ParameterException(command, Secrets.redact(Texts.oneLine(e.getMessage())), e), null);
        }
        PrintWriter err = command.getErr();
        err.println("errand: " + Secrets.redact(Texts.oneLine(messageOf(e))));
        if (verbose(parsed)) {
            StringWriter trace = new StringWriter();
            e.printStackTrace(new PrintWriter(trace));
            err.print(Secrets.redact(trace.toString()));
        } else if (!(e instanceof CommandFailure)) {
            err.println("(--verbose shows the stack trace)");
        }
        err.flush();
        return FAILED;
    }

    private static String messageOf(Throwable e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getName() : message;
    }

    private static boolean verbose(ParseResult parsed) {
        for (ParseResult level = parsed; level != null; level = level.subcommand()) {
            if (level.hasMatchedOption("--verbose")) {
                return true;
            }
        }
        return false;
    }

    private static PrintWriter utf8(FileDescriptor descriptor) {
        return new PrintWriter(new OutputStreamWriter(new FileOutputStream(descriptor), StandardCharsets.UTF_8), true);
    }

    /** The version of the jar, from its manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = ErrandCli.class.getPackage().getImplementationVersion();
            return new String[] {"errand " + (version == null ? "(development build)" : version)};
        }
    }
}
