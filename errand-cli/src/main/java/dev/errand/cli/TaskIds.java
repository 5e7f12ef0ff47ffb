package dev.errand.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Task ids from the command line: positive numbers, as the task table hands them out. */
final class TaskIds {

    private TaskIds() {}

    /**
     * Checks an id.
     *
     * @throws ParameterException if it is not positive
     */
    static long require(CommandSpec spec, long id) {
        if (id < 1) {
            throw new ParameterException(spec.commandLine(), "Task ids are positive numbers, got " + id);
        }
        return id;
    }
}
