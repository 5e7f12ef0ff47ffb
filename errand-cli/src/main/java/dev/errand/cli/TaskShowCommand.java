package dev.errand.cli;

import dev.errand.Errand;
import dev.errand.history.Attempt;
import dev.errand.task.Task;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code errand tasks show ID}: one task's row, its last error, its chain and its attempts. */
@Command(
        name = "show",
        mixinStandardHelpOptions = true,
        description = {
            "Shows one task: its row, its last error in full, the continuation chain it belongs to, and its"
                    + " attempts from the attempt history (recorded while the nodes run with history on)."
        })
final class TaskShowCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ConnectionOptions connection;

    @Mixin
    private Output output;

    @Parameters(paramLabel = "ID", description = "The task's id.")
    private long id;

    @Override
    public Integer call() {
        TaskIds.require(spec, id);
        Task task;
        List<Long> chain;
        List<Attempt> attempts;
        try (AdminSession session = AdminSession.open(connection)) {
            Errand errand = session.errand();
            task = errand.admin()
                    .find(id)
                    .orElseThrow(() -> new CommandFailure("no task " + id + " in " + connection.tablePrefix()
                            + "task (it may have succeeded and" + " been deleted, or been pruned)"));
            chain = errand.admin().chain(id);
            attempts = errand.history().attempts(id);
        }
        if (output.json()) {
            var json = Output.object();
            json.set("task", Output.taskJson(task));
            json.set("chain", Output.tree(chain));
            json.set("attempts", Output.tree(attempts));
            output.printJson(json);
        } else {
            print(output.out(), task, chain, attempts);
        }
        return 0;
    }

    private static void print(PrintWriter out, Task task, List<Long> chain, List<Attempt> attempts) {
        field(out, "id", task.id());
        field(out, "kind", task.kind());
        field(out, "queue", task.queue());
        field(out, "state", task.state().dbValue());
        field(out, "priority", task.priority());
        field(out, "attempts", task.attempt() + " of " + task.maxAttempts());
        field(out, "run at", task.runAt());
        field(out, "created at", task.createdAt());
        field(out, "started at", task.startedAt());
        field(out, "finished at", task.finishedAt());
        field(out, "lease owner", task.leaseOwner());
        field(out, "lease expires", task.leaseExpiresAt());
        field(out, "unique key", task.uniqueKey());
        field(out, "payload", task.payloadJson());
        if (chain.size() > 1) {
            field(out, "chain", chain);
        }
        if (task.lastError() == null) {
            field(out, "last error", null);
        } else {
            out.println("last error");
            Texts.lines(task.lastError()).lines().forEach(line -> out.println("  " + line));
        }
        out.println();
        if (attempts.isEmpty()) {
            out.println("No attempt in the history (it is recorded while the nodes run with history on).");
        } else {
            Table table = new Table("ATTEMPT", "OUTCOME", "NODE", "STARTED", "FINISHED", "DURATION", "ERROR");
            for (Attempt attempt : attempts) {
                table.row(
                        attempt.attempt(),
                        attempt.outcome().dbValue(),
                        attempt.node(),
                        Texts.time(attempt.startedAt()),
                        Texts.time(attempt.finishedAt()),
                        Texts.duration(attempt.duration()),
                        attempt.error() == null
                                ? null
                                : attempt.error().type()
                                        + (attempt.error().message() == null
                                                ? ""
                                                : ": " + attempt.error().message()));
            }
            table.print(out);
        }
        out.flush();
    }

    private static void field(PrintWriter out, String name, Object value) {
        String text = value == null ? "-" : Texts.oneLine(String.valueOf(value));
        out.println(String.format("%-14s %s", name, text).stripTrailing());
    }
}
