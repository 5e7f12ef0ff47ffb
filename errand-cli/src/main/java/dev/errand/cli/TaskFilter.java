package dev.errand.cli;

import dev.errand.admin.TaskQuery;
import dev.errand.config.Names;
import dev.errand.task.TaskState;
import java.util.Locale;
import java.util.function.BiConsumer;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * The filters of {@code errand tasks list}: one constant per setter of {@link TaskQuery.Builder}, so that a filter
 * the admin API gains is one more line here. The value goes to the setter as typed, and the setter's refusal is the
 * message the user sees.
 */
enum TaskFilter {
    STATE(
            "--state",
            "STATE",
            "Only tasks in this state: pending, waiting, running, succeeded, failed or cancelled.",
            (query, value) -> query.state(TaskState.fromDbValue(value.toLowerCase(Locale.ROOT)))),
    KIND("--kind", "KIND", "Only tasks of this kind.", TaskQuery.Builder::kind),
    QUEUE("--queue", "QUEUE", "Only tasks in this queue.", TaskQuery.Builder::queue),
    LIMIT(
            "--limit",
            "N",
            "List at most N tasks: 1 to " + TaskQuery.MAX_LIMIT + " (default 50).",
            (query, value) -> query.limit(number(value))),
    OFFSET(
            "--offset",
            "N",
            "Skip the first N matching tasks (default 0).",
            (query, value) -> query.offset(number(value)));

    private final String option;
    private final String label;
    private final String description;
    private final BiConsumer<TaskQuery.Builder, String> apply;

    TaskFilter(String option, String label, String description, BiConsumer<TaskQuery.Builder, String> apply) {
        this.option = option;
        this.label = label;
        this.description = description;
        this.apply = apply;
    }

    /**
     * The query the command's filter options ask for.
     *
     * @throws ParameterException naming the option whose value the query refuses
     */
    static TaskQuery query(CommandSpec spec) {
        TaskQuery.Builder query = TaskQuery.builder();
        for (TaskFilter filter : values()) {
            String value = spec.findOption(filter.option).getValue();
            if (value == null) {
                continue;
            }
            try {
                filter.apply.accept(query, value);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(
                        spec.commandLine(),
                        "Invalid value for option '" + filter.option + "': " + Texts.oneLine(e.getMessage()),
                        e,
                        spec.findOption(filter.option),
                        value);
            }
        }
        return query.build();
    }

    private static int number(String value) {
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("must be a whole number, got " + Names.echo(value), e);
        }
    }

    /** Adds an option per filter to the command it is declared on. */
    static final class Options implements IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            for (TaskFilter filter : values()) {
                spec.addOption(OptionSpec.builder(filter.option)
                        .paramLabel(filter.label)
                        .description(filter.description)
                        .type(String.class)
                        .build());
            }
            return spec;
        }
    }
}
