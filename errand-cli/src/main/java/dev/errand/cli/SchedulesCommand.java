package dev.errand.cli;

import dev.errand.schedule.ScheduleAdmin;
import dev.errand.schedule.ScheduleInfo;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code errand schedules}: the recurring schedules, cluster-wide. */
@Command(
        name = "schedules",
        mixinStandardHelpOptions = true,
        description = "Lists, pauses, resumes and removes recurring schedules; each change applies cluster-wide at the"
                + " next firing.",
        subcommands = {
            SchedulesCommand.ListSchedules.class,
            SchedulesCommand.Pause.class,
            SchedulesCommand.Resume.class,
            SchedulesCommand.Remove.class
        })
final class SchedulesCommand extends Group {

    /** {@code errand schedules list}. */
    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "Lists every schedule, by name, with the problem of any row Errand cannot read or fire.")
    static final class ListSchedules implements Callable<Integer> {
        @Mixin
        private ConnectionOptions connection;

        @Mixin
        private Output output;

        @Override
        public Integer call() {
            List<ScheduleInfo> schedules;
            try (AdminSession session = AdminSession.open(connection)) {
                schedules = session.errand().schedules().list();
            }
            if (output.json()) {
                output.printJson(schedules);
                return 0;
            }
            Table table =
                    new Table("NAME", "KIND", "QUEUE", "TIMING", "ZONE", "PAUSED", "NEXT RUN", "LAST RUN", "PROBLEM");
            for (ScheduleInfo schedule : schedules) {
                table.row(
                        schedule.name(),
                        schedule.kind(),
                        schedule.queue(),
                        schedule.timing(),
                        schedule.zone(),
                        schedule.paused() ? "yes" : "no",
                        Texts.time(schedule.nextRunAt()),
                        Texts.time(schedule.lastRunAt()),
                        schedule.problem());
            }
            if (table.isEmpty()) {
                output.out().println("No schedules.");
            } else {
                table.print(output.out());
            }
            output.out().flush();
            return 0;
        }
    }

    /** A change to one schedule by name; exits with 1 if there is no schedule of that name. */
    abstract static class Change implements Callable<Integer> {
        @Mixin
        private ConnectionOptions connection;

        @Mixin
        private Output output;

        @Parameters(paramLabel = "NAME", description = "The schedule's name, exactly as stored.")
        private String name;

        /** Changes the schedule; returns false if there is none of that name. */
        abstract boolean change(ScheduleAdmin schedules, String name);

        /** What was done, as a past participle. */
        abstract String done();

        @Override
        public Integer call() {
            boolean found;
            try (AdminSession session = AdminSession.open(connection)) {
                found = change(session.errand().schedules(), name);
            }
            if (!found) {
                throw new CommandFailure("no schedule named " + dev.errand.config.Names.echo(name));
            }
            if (output.json()) {
                var json = Output.object();
                json.put("schedule", name);
                json.put("result", done());
                output.printJson(json);
            } else {
                output.out().println("schedule " + Texts.oneLine(name) + ": " + done());
                output.out().flush();
            }
            return 0;
        }
    }

    /** {@code errand schedules pause}. */
    @Command(
            name = "pause",
            mixinStandardHelpOptions = true,
            description = "Stops firing a schedule, and takes back the task it wrote ahead of a slot still to come.")
    static final class Pause extends Change {
        @Override
        boolean change(ScheduleAdmin schedules, String name) {
            return schedules.pause(name);
        }

        @Override
        String done() {
            return "paused";
        }
    }

    /** {@code errand schedules resume}. */
    @Command(
            name = "resume",
            mixinStandardHelpOptions = true,
            description = "Fires a paused schedule again from its next slot after now (the paused slots follow its"
                    + " misfire policy).")
    static final class Resume extends Change {
        @Override
        boolean change(ScheduleAdmin schedules, String name) {
            return schedules.resume(name);
        }

        @Override
        String done() {
            return "resumed";
        }
    }

    /** {@code errand schedules remove}. */
    @Command(
            name = "remove",
            mixinStandardHelpOptions = true,
            description = "Removes a schedule: none of its future slots fires. A node that declares it in its code"
                    + " stores it again when it starts.")
    static final class Remove extends Change {
        @Override
        boolean change(ScheduleAdmin schedules, String name) {
            return schedules.remove(name);
        }

        @Override
        String done() {
            return "removed";
        }
    }
}
