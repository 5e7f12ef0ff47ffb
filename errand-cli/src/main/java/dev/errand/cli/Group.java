package dev.errand.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** A command that only groups subcommands: run alone, it is a usage error. */
abstract class Group implements Runnable {

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(
                spec.commandLine(),
                "Missing the subcommand: "
                        + String.join(", ", spec.subcommands().keySet()));
    }
}
