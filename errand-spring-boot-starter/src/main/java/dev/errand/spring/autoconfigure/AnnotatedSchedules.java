package dev.errand.spring.autoconfigure;

import dev.errand.schedule.MisfirePolicy;
import dev.errand.schedule.Schedule;
import dev.errand.spring.ErrandConfigurationException;
import dev.errand.spring.ErrandSchedule;
import dev.errand.spring.ErrandTask;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.springframework.aop.scope.ScopedProxyUtils;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.env.Environment;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the {@link ErrandSchedule} annotations of the context's beans into schedules of the kind of the
 * {@link ErrandTask} beside them, on a bean or on a handler method. Like the task discovery, it reads bean
 * definitions only.
 */
final class AnnotatedSchedules {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ConfigurableListableBeanFactory beanFactory;
    private final Environment environment;

    AnnotatedSchedules(ConfigurableListableBeanFactory beanFactory, Environment environment) {
        this.beanFactory = beanFactory;
        this.environment = environment;
    }

    /**
     * The schedules of the given annotations, found beside the {@code @ErrandTask} of {@code kind}.
     *
     * @throws ErrandConfigurationException if one of them is invalid: the message names the source and what to
     *     fix
     */
    List<Schedule> of(Set<ErrandSchedule> annotations, String kind, String source) {
        List<Schedule> schedules = new ArrayList<>();
        for (ErrandSchedule annotation : annotations) {
            String name = text(annotation.name());
            if (name.isEmpty()) {
                name = kind;
            }
            try {
                schedules.add(build(annotation, name, kind));
            } catch (IllegalArgumentException e) {
                throw new ErrandConfigurationException(
                        "@ErrandSchedule '" + name + "' of " + source + " is invalid: " + e.getMessage() + ".",
                        "Fix the attribute in @ErrandSchedule.");
            }
        }
        return schedules;
    }

    /**
     * Refuses {@code @ErrandSchedule} on a bean without {@code @ErrandTask}: its schedule would have no kind,
     * and would silently never be declared.
     */
    void requireTaskBeside() {
        for (String beanName : beanFactory.getBeanNamesForAnnotation(ErrandSchedule.class)) {
            if (!ScopedProxyUtils.isScopedTarget(beanName)
                    && beanFactory.findAnnotationOnBean(beanName, ErrandTask.class) == null) {
                throw new ErrandConfigurationException(
                        "Bean '" + beanName + "' has @ErrandSchedule but no @ErrandTask, so its schedule has no task"
                                + " kind.",
                        "Put @ErrandSchedule on the @ErrandTask bean whose kind it enqueues, or declare a Schedule"
                                + " bean or errand.schedules.<name>.* properties with the kind.");
            }
        }
    }

    /** The annotations of a bean: Spring's merged annotations include repeated ones, on the class and on a {@code @Bean} method. */
    Set<ErrandSchedule> onBean(String beanName) {
        return beanFactory.findAllAnnotationsOnBean(beanName, ErrandSchedule.class, false);
    }

    private Schedule build(ErrandSchedule annotation, String name, String kind) {
        String cron = text(annotation.cron());
        String every = text(annotation.every());
        if (cron.isEmpty() == every.isEmpty()) {
            throw new IllegalArgumentException("give either cron (for example \"0 2 * * *\") or every (for example"
                    + " \"5m\"), not " + (cron.isEmpty() ? "neither" : "both"));
        }
        Schedule.Builder builder =
                cron.isEmpty() ? Schedule.every(name, kind, interval(every)) : Schedule.cron(name, kind, cron);
        builder.zone(text(annotation.zone())).queue(text(annotation.queue())).payload(payload(annotation));
        if (annotation.misfire() == MisfirePolicy.RUN_ALL) {
            builder.runAllMissed(annotation.misfireLimit());
        } else if (annotation.misfireLimit() != 0) {
            throw new IllegalArgumentException("misfireLimit needs misfire = RUN_ALL");
        } else {
            builder.misfire(annotation.misfire());
        }
        return builder.build();
    }

    private static Duration interval(String every) {
        try {
            return DurationStyle.detectAndParse(every);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "every \"" + every + "\" is not a duration; write it as \"30s\", \"5m\", \"1h\" or \"PT5M\"", e);
        }
    }

    /** The payload as a JSON tree: the node's codec writes it as it is, whatever its naming rules. */
    private JsonNode payload(ErrandSchedule annotation) {
        String json = text(annotation.payload());
        if (json.isEmpty()) {
            return null;
        }
        try {
            return JSON.readTree(json);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(
                    "payload is not JSON (" + e.getOriginalMessage() + "); write it as a JSON object such as"
                            + " \"{\\\"scope\\\": \\\"all\\\"}\"",
                    e);
        }
    }

    private String text(String value) {
        return environment.resolveRequiredPlaceholders(value).trim();
    }
}
