package dev.errand.spring;

import dev.errand.schedule.Schedule;
import dev.errand.task.TaskDefinition;
import java.util.List;
import java.util.Optional;

/**
 * The task kinds the starter registered on the Errand node, each with where it came from, and the schedules
 * declared with {@link ErrandSchedule} beside them. The actuator endpoint lists the kinds; tests and
 * diagnostics can inspect both.
 *
 * @param registrations the registered kinds, in registration order
 * @param schedules the schedules of {@link ErrandSchedule} annotations, in the order they were found
 */
public record ErrandTasks(List<Registration> registrations, List<Schedule> schedules) {

    /** Copies the lists. */
    public ErrandTasks {
        registrations = List.copyOf(registrations);
        schedules = List.copyOf(schedules);
    }

    /** Kinds without annotated schedules. */
    public ErrandTasks(List<Registration> registrations) {
        this(registrations, List.of());
    }

    /** The registration of {@code kind}, if there is one. */
    public Optional<Registration> find(String kind) {
        return registrations.stream()
                .filter(r -> r.definition().kind().equals(kind))
                .findFirst();
    }

    /** The registered definitions, in registration order. */
    public List<TaskDefinition<?>> definitions() {
        return registrations.stream()
                .<TaskDefinition<?>>map(Registration::definition)
                .toList();
    }

    /**
     * One registered kind.
     *
     * @param definition the kind's definition, as handed to the builder
     * @param source where it came from, for example {@code @ErrandTask bean 'smsSender' (com.example.SmsSender)}
     */
    public record Registration(TaskDefinition<?> definition, String source) {}
}
