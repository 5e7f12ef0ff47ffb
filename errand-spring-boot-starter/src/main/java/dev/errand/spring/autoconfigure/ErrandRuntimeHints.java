package dev.errand.spring.autoconfigure;

import dev.errand.spring.ErrandSchedule;
import dev.errand.spring.ErrandSchedules;
import dev.errand.spring.ErrandTask;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What a GraalVM native image of an application with Errand needs whatever its handlers: the core's Flyway
 * scripts as resources (the core lists them by name, it does not scan for them), and Errand's annotations,
 * which Spring reads and synthesizes at run time. The handlers' own needs come from
 * {@link ErrandAotProcessor}.
 */
public final class ErrandRuntimeHints implements RuntimeHintsRegistrar {

    /** The class-path pattern of the core's migration scripts, every dialect. */
    static final String SCRIPTS = "dev/errand/schema/*/*.sql";

    /** Creates the registrar; Spring calls it. */
    public ErrandRuntimeHints() {}

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        hints.resources().registerPattern(SCRIPTS);
        for (Class<?> annotation : new Class<?>[] {ErrandTask.class, ErrandSchedule.class, ErrandSchedules.class}) {
            hints.reflection().registerType(annotation, MemberCategory.INVOKE_DECLARED_METHODS);
        }
        // @ErrandTask has aliases (kind, value): Spring synthesizes it as a JDK proxy.
        hints.proxies().registerJdkProxy(ErrandTask.class);
        hints.proxies().registerJdkProxy(ErrandSchedule.class);
    }
}
