package dev.errand.spring.aot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.internal.schema.MigrationScripts;
import dev.errand.spring.ErrandTask;
import dev.errand.spring.autoconfigure.ErrandAutoConfiguration;
import dev.errand.spring.autoconfigure.ErrandRuntimeHints;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskHandler;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.javapoet.ClassName;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The hints a native image needs, as {@code spring-boot:process-aot} registers them: the core's migration
 * scripts, Errand's annotations, and for each handler its class, method and payload types.
 */
class ErrandAotTest {

    /** A payload with a nested type, which Jackson needs too. */
    record Invoice(String number, Line line) {}

    record Line(String text, long cents) {}

    record Reminder(String invoice) {}

    /** A plain bean with a handler method. */
    static class Billing {
        @ErrandTask(kind = "send-invoice")
        public void send(Invoice invoice, TaskContext context) {}
    }

    /** A handler class. */
    @ErrandTask("remind")
    static class Remind implements TaskHandler<Reminder> {
        @Override
        public void handle(Reminder payload, TaskContext context) {}
    }

    @Test
    void theCoresMigrationScriptsAndErrandsAnnotationsAreRegistered() {
        RuntimeHints hints = new RuntimeHints();
        new ErrandRuntimeHints().registerHints(hints, getClass().getClassLoader());
        for (String dialect : List.of("postgresql", "mysql", "h2")) {
            for (String script : MigrationScripts.paths(dialect)) {
                assertThat(RuntimeHintsPredicates.resource().forResource(script))
                        .as(script)
                        .accepts(hints);
            }
        }
        assertThat(RuntimeHintsPredicates.resource().forResource("dev/errand/Errand.class"))
                .rejects(hints);
        assertThat(RuntimeHintsPredicates.proxies().forInterfaces(ErrandTask.class))
                .accepts(hints);
    }

    @Test
    void processAotRegistersEachHandlersClassMethodAndPayloadTypes() throws Exception {
        RuntimeHints hints = processAheadOfTime(Billing.class, Remind.class);

        // The auto-configuration's @ImportRuntimeHints brings the static hints in.
        assertThat(RuntimeHintsPredicates.resource()
                        .forResource("dev/errand/schema/postgresql/V1__create_task_table.sql"))
                .accepts(hints);
        // The handler method is invoked by reflection.
        assertThat(RuntimeHintsPredicates.reflection()
                        .onMethodInvocation(Billing.class.getMethod("send", Invoice.class, TaskContext.class)))
                .accepts(hints);
        // Jackson builds the payloads through their canonical constructors and reads their accessors, nested too.
        for (Class<?> payload : List.of(Invoice.class, Line.class, Reminder.class)) {
            assertThat(RuntimeHintsPredicates.reflection()
                            .onConstructorInvocation(payload.getDeclaredConstructors()[0]))
                    .as(payload.getSimpleName())
                    .accepts(hints);
        }
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Line.class, "cents"))
                .accepts(hints);
        // The handler class is introspected for its TaskHandler type argument.
        assertThat(RuntimeHintsPredicates.reflection().onType(Remind.class)).accepts(hints);
        // Nothing for a type that is no payload.
        assertThat(RuntimeHintsPredicates.reflection().onType(ErrandAotTest.class))
                .rejects(hints);
    }

    @Test
    void withoutHandlersOnlyTheStaticHintsAreRegistered() {
        RuntimeHints hints = processAheadOfTime();
        assertThat(RuntimeHintsPredicates.resource().forResource("dev/errand/schema/h2/V1__create_task_table.sql"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(Invoice.class)).rejects(hints);
    }

    /** Runs Spring's AOT processing, as process-aot does, on a context with the auto-configuration and the beans. */
    private static RuntimeHints processAheadOfTime(Class<?>... beans) {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
            context.registerBean("dataSource", DriverManagerDataSource.class);
            for (Class<?> bean : beans) {
                context.registerBean(bean);
            }
            context.register(ErrandAutoConfiguration.class);
            DefaultGenerationContext generation = new DefaultGenerationContext(
                    new ClassNameGenerator(ClassName.get("dev.errand.spring.aot", "Generated")),
                    new InMemoryGeneratedFiles());
            new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
            return generation.getRuntimeHints();
        }
    }
}
