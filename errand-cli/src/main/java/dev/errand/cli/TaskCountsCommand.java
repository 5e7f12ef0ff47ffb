package dev.errand.cli;

import dev.errand.admin.TaskCounts;
import dev.errand.task.TaskState;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code errand tasks counts}: every task counted by state, kind and queue. */
@Command(
        name = "counts",
        mixinStandardHelpOptions = true,
        description = "Counts every task by state, kind and queue, with the due and overdue pending ones, in one"
                + " read of the table.")
final class TaskCountsCommand implements Callable<Integer> {

    @Mixin
    private ConnectionOptions connection;

    @Mixin
    private Output output;

    @Option(
            names = "--overdue-after",
            paramLabel = "DURATION",
            defaultValue = "5m",
            converter = DurationConverter.class,
            description = "How long past its run time a pending task must be to count as overdue: 90s, 5m, 2h, 1d"
                    + " or PT5M (default ${DEFAULT-VALUE}).")
    private Duration overdueAfter;

    @Override
    public Integer call() {
        TaskCounts counts;
        try (AdminSession session = AdminSession.open(connection)) {
            counts = session.errand().admin().counts(overdueAfter);
        }
        if (output.json()) {
            var json = Output.object();
            json.set("counts", Output.tree(counts));
            var byState = json.putObject("byState");
            counts.byState().forEach((state, count) -> byState.put(state.dbValue(), count));
            output.printJson(json);
            return 0;
        }
        Table table = new Table("STATE", "KIND", "QUEUE", "COUNT", "DUE", "OVERDUE", "OLDEST DUE WAITED");
        for (TaskCounts.Count count : counts.counts()) {
            table.row(
                    count.state().dbValue(),
                    count.kind(),
                    count.queue(),
                    count.count(),
                    count.due(),
                    count.overdue(),
                    count.due() == 0 ? null : Texts.duration(count.oldestDueLag()));
        }
        if (table.isEmpty()) {
            output.out().println("No tasks.");
        } else {
            table.print(output.out());
            StringBuilder total = new StringBuilder("\nBy state:");
            for (Map.Entry<TaskState, Long> state : counts.byState().entrySet()) {
                total.append(' ')
                        .append(state.getKey().dbValue())
                        .append(' ')
                        .append(state.getValue())
                        .append(',');
            }
            output.out().println(total.substring(0, total.length() - 1));
        }
        output.out().println("Database time " + Texts.time(counts.databaseTime()) + ".");
        output.out().flush();
        return 0;
    }
}
