package dev.errand.cli;

import dev.errand.event.Triggered;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code errand events}: the events that waiting tasks wait for. */
@Command(
        name = "events",
        mixinStandardHelpOptions = true,
        description = "Triggers events.",
        subcommands = EventsCommand.Trigger.class)
final class EventsCommand extends Group {

    /** {@code errand events trigger NAME}. */
    @Command(
            name = "trigger",
            mixinStandardHelpOptions = true,
            description = {
                "Triggers an event: every waiting task with it as a condition has that condition fulfilled, and those"
                        + " that wait for nothing else become pending. If no task waits for it, it is stored as"
                        + " premature, for the next task enqueued with it."
            })
    static final class Trigger implements Callable<Integer> {
        @Mixin
        private ConnectionOptions connection;

        @Mixin
        private Output output;

        @Parameters(paramLabel = "NAME", description = "The event's name.")
        private String name;

        @Override
        public Integer call() {
            Triggered triggered;
            try (AdminSession session = AdminSession.open(connection)) {
                triggered = session.errand().triggerEvent(name);
            }
            if (output.json()) {
                output.printJson(triggered);
            } else {
                output.out()
                        .println(
                                triggered.storedAsPremature()
                                        ? "event " + Texts.oneLine(name)
                                                + ": no task waited for it; stored as premature"
                                        : "event " + Texts.oneLine(name) + ": fulfilled "
                                                + triggered.fulfilledConditions() + " condition(s); "
                                                + triggered.releasedTasks() + " task(s) became pending");
                output.out().flush();
            }
            return 0;
        }
    }
}
