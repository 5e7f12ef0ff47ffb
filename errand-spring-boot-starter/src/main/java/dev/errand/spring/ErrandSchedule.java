package dev.errand.spring;

import dev.errand.schedule.MisfirePolicy;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a recurring schedule of the kind of the {@link ErrandTask} it sits beside: each slot of its cron
 * expression or interval becomes one task of that kind, once across the cluster. The schedule is stored (or
 * the stored one of its name changed) when the Errand node is built, as {@code ErrandBuilder.schedule} does.
 *
 * <pre>{@code
 * @Component
 * @ErrandTask("build-report")
 * @ErrandSchedule(name = "nightly-report", cron = "30 2 * * *", zone = "Europe/Berlin",
 *         payload = "{\"scope\": \"all\"}")
 * class BuildReport implements TaskHandler<ReportRequest> { ... }
 * }</pre>
 *
 * <p>Give exactly one of {@link #cron()} and {@link #every()}. Every text attribute takes {@code ${…}}
 * placeholders. A bad attribute, or this annotation on a bean without {@code @ErrandTask}, stops start-up
 * with a message that names the bean and what to fix. Repeat the annotation for several schedules of one
 * kind; give each a {@link #name()}.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Repeatable(ErrandSchedules.class)
public @interface ErrandSchedule {

    /** The schedule's unique name, 1 to 100 characters; empty (the default) uses the task kind. */
    String name() default "";

    /** A cron expression: five fields, or six with the seconds first, such as {@code "30 2 * * *"}. */
    String cron() default "";

    /** A fixed interval instead of a cron, such as {@code "5m"} or {@code "PT1H"}: 1 s to 366 days. */
    String every() default "";

    /** The time zone the cron expression is read in, such as {@code "Europe/Berlin"}. */
    String zone() default "UTC";

    /** The queue of the tasks it enqueues. */
    String queue() default "default";

    /** What happens to slots missed while the whole cluster was down or the schedule paused. */
    MisfirePolicy misfire() default MisfirePolicy.SKIP;

    /** With {@link MisfirePolicy#RUN_ALL}: how many of the latest missed slots run, 1 to 1000. */
    int misfireLimit() default 0;

    /** The payload of every task, as JSON (read into the kind's payload type); empty for none. */
    String payload() default "";
}
