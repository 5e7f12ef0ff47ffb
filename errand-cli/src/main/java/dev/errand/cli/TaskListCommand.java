package dev.errand.cli;

import dev.errand.admin.Page;
import dev.errand.admin.TaskQuery;
import dev.errand.task.Task;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code errand tasks list}: a page of tasks by id, with the admin API's filters. */
@Command(
        name = "list",
        mixinStandardHelpOptions = true,
        modelTransformer = TaskFilter.Options.class,
        description = "Lists a page of tasks, by id, that match every filter given.")
final class TaskListCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ConnectionOptions connection;

    @Mixin
    private Output output;

    @Override
    public Integer call() {
        TaskQuery query = TaskFilter.query(spec);
        Page<Task> page;
        try (AdminSession session = AdminSession.open(connection)) {
            page = session.errand().admin().list(query);
        }
        if (output.json()) {
            var json = Output.object();
            json.put("total", page.total());
            json.put("offset", page.offset());
            json.put("limit", page.limit());
            var items = json.putArray("items");
            page.items().forEach(task -> items.add(Output.taskJson(task)));
            output.printJson(json);
            return 0;
        }
        Table table = new Table("ID", "STATE", "KIND", "QUEUE", "PRIORITY", "ATTEMPTS", "RUN AT", "LAST ERROR");
        for (Task task : page.items()) {
            table.row(
                    task.id(),
                    task.state().dbValue(),
                    task.kind(),
                    task.queue(),
                    task.priority(),
                    task.attempt() + "/" + task.maxAttempts(),
                    Texts.time(task.runAt()),
                    task.lastError());
        }
        if (!table.isEmpty()) {
            table.print(output.out());
        }
        output.out().println(summary(page));
        output.out().flush();
        return 0;
    }

    private static String summary(Page<Task> page) {
        if (page.items().isEmpty()) {
            return page.total() == 0
                    ? "No task matches."
                    : "No task on this page: " + page.total() + " match, --offset " + page.offset()
                            + " skips them all.";
        }
        String shown = (page.offset() + 1) + "-" + (page.offset() + page.items().size()) + " of " + page.total()
                + " matching task" + (page.total() == 1 ? "" : "s");
        return page.hasNext()
                ? shown + "; --offset " + (page.offset() + page.items().size()) + " for the next page."
                : shown + ".";
    }
}
