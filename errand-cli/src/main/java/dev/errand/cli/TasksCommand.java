package dev.errand.cli;

import picocli.CommandLine.Command;

/** {@code errand tasks}: the tasks' admin API. */
@Command(
        name = "tasks",
        mixinStandardHelpOptions = true,
        description = "Lists, shows, retries, cancels and deletes tasks, and counts them.",
        subcommands = {
            TaskListCommand.class,
            TaskShowCommand.class,
            TaskActionCommand.Retry.class,
            TaskActionCommand.Cancel.class,
            TaskActionCommand.Delete.class,
            TaskCountsCommand.class
        })
final class TasksCommand extends Group {}
