package dev.errand.spring.autoconfigure;

import dev.errand.schedule.Schedule;
import dev.errand.spi.PayloadCodec;
import dev.errand.spi.PayloadDecodingException;
import dev.errand.spring.ErrandConfigurationException;
import dev.errand.spring.ErrandTask;
import dev.errand.spring.ErrandTaskCustomizer;
import dev.errand.spring.ErrandTasks;
import dev.errand.spring.PersistentRunnables;
import dev.errand.task.FailedTask;
import dev.errand.task.FailureCallback;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskHandler;
import dev.errand.task.TaskKind;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.aop.scope.ScopedProxyUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.AutowireCapableBeanFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import tools.jackson.databind.exc.InvalidDefinitionException;

/**
 * Collects the task kinds of an application context: {@link ErrandTask} beans, {@link ErrandTask} methods,
 * {@code TaskDefinition} beans and {@link PersistentRunnables}; and the {@code @ErrandSchedule} schedules beside the {@link ErrandTask}s. It reads bean definitions only and does not create the handler beans:
 * a handler is looked up when its first task runs, after the context has refreshed. That lets handlers
 * depend on the {@code ErrandClient} (and so on the Errand node) without a circular reference.
 */
final class ErrandTaskDiscovery {

    private final ConfigurableListableBeanFactory beanFactory;
    private final Environment environment;
    private final List<ErrandTaskCustomizer> customizers;
    private final Map<String, ErrandTasks.Registration> registrations = new LinkedHashMap<>();
    private final AnnotatedSchedules annotatedSchedules;
    private final TaskAnnotationOptions options;
    private final PayloadCodec payloadCodec;
    private final List<Schedule> schedules = new ArrayList<>();
    /** The {@code errand.flow.kinds.*} properties, by kind. */
    private final Map<String, ErrandProperties.FlowKind> flowKinds;

    ErrandTaskDiscovery(
            ConfigurableListableBeanFactory beanFactory,
            Environment environment,
            List<ErrandTaskCustomizer> customizers,
            PayloadCodec payloadCodec,
            Map<String, ErrandProperties.FlowKind> flowKinds) {
        this.beanFactory = beanFactory;
        this.flowKinds = flowKinds == null ? Map.of() : flowKinds;
        this.payloadCodec = payloadCodec;
        this.options = new TaskAnnotationOptions(environment);
        this.environment = environment;
        this.customizers = customizers;
        this.annotatedSchedules = new AnnotatedSchedules(beanFactory, environment);
    }

    ErrandTasks discover() {
        annotatedSchedules.requireTaskBeside();
        for (String beanName : beanFactory.getBeanNamesForAnnotation(ErrandTask.class)) {
            if (!ScopedProxyUtils.isScopedTarget(beanName)) {
                addAnnotatedBean(beanName);
            }
        }
        HandlerMethods.in(beanFactory).forEach(this::addMethod);
        @SuppressWarnings("rawtypes")
        Map<String, TaskDefinition> definitions = beanFactory.getBeansOfType(TaskDefinition.class);
        definitions.forEach((beanName, definition) -> add(definition, "TaskDefinition bean '" + beanName + "'"));
        beanFactory.getBeansOfType(PersistentRunnables.class).forEach((beanName, runnables) -> runnables
                .kinds()
                .forEach((type, kind) -> addRunnable(kind, type, beanName)));
        requireFlowKindsRegistered();
        return new ErrandTasks(new ArrayList<>(registrations.values()), schedules);
    }

    /** Refuses {@code errand.flow.kinds.<kind>} for a kind that no handler registers, or that cannot take it. */
    private void requireFlowKindsRegistered() {
        for (String kind : flowKinds.keySet()) {
            ErrandTasks.Registration registration = registrations.get(kind);
            if (registration == null) {
                throw new ErrandConfigurationException(
                        "errand.flow.kinds." + kind + " names kind '" + kind + "', which no @ErrandTask handler or"
                                + " persistent runnable registers. Registered kinds: " + registrations.keySet() + ".",
                        "Fix the kind's name in the property, or remove it.");
            }
            if (registration.source().startsWith("TaskDefinition bean")) {
                throw new ErrandConfigurationException(
                        "errand.flow.kinds." + kind + " cannot apply to kind '" + kind + "' of " + registration.source()
                                + ", which is built before the properties are read.",
                        "Set the limit on the TaskDefinition's builder, or register the kind with @ErrandTask.");
            }
        }
    }

    private void addAnnotatedBean(String beanName) {
        ErrandTask annotation = beanFactory.findAnnotationOnBean(beanName, ErrandTask.class);
        Class<?> beanType = beanFactory.getType(beanName);
        String kind = annotation.value();
        String source = "@ErrandTask bean '" + beanName + "'"
                + (beanType == null
                        ? ""
                        : " (" + ClassUtils.getUserClass(beanType).getName() + ")");
        if (beanType == null) {
            throw invalid(
                    kind,
                    source,
                    "its type cannot be determined before it is created",
                    "Declare the bean with its concrete class, for example as the return type of its @Bean method.");
        }
        Class<?> userType = ClassUtils.getUserClass(beanType);
        if (!TaskHandler.class.isAssignableFrom(userType)) {
            throw invalid(
                    kind,
                    source,
                    "it does not implement " + TaskHandler.class.getName(),
                    "Implement TaskHandler<YourPayload> on the bean, or remove @ErrandTask.");
        }
        try {
            TaskKind.requireValidName(kind);
        } catch (IllegalArgumentException e) {
            throw invalid(kind, source, e.getMessage(), "Fix the kind in @ErrandTask.");
        }
        Class<?> payloadType = payloadType(annotation, userType, kind, source);
        boolean failureCallback = FailureCallback.class.isAssignableFrom(userType);
        TaskDefinition.Builder<Object> builder =
                TaskDefinition.builder(kind, cast(payloadType), new BeanHandler(beanFactory, beanName));
        try {
            options.apply(annotation, builder, flowKinds.get(kind));
        } catch (IllegalArgumentException e) {
            throw invalid(kind, source, e.getMessage(), "Fix the option in @ErrandTask or errand.flow.kinds." + kind);
        }
        if (failureCallback) {
            builder.onFailure(new BeanFailureCallback(beanFactory, beanName));
        }
        customize(kind, builder, source);
        add(builder.build(), source);
        schedules.addAll(annotatedSchedules.of(annotatedSchedules.onBean(beanName), kind, source));
    }

    private void addMethod(HandlerMethods.Found found) {
        String kind = found.annotation().value();
        String source = found.source();
        try {
            TaskKind.requireValidName(kind);
        } catch (IllegalArgumentException e) {
            throw HandlerMethodSignature.refused(found, e.getMessage(), "Set the kind: @ErrandTask(kind = \"...\").");
        }
        HandlerMethodSignature signature = HandlerMethodSignature.of(found);
        requireReadable(found, signature.payloadType());
        TaskDefinition.Builder<Object> builder = TaskDefinition.builder(
                kind, cast(signature.payloadType()), new MethodTaskHandler(beanFactory, found, signature));
        try {
            options.apply(found.annotation(), builder, flowKinds.get(kind));
        } catch (IllegalArgumentException e) {
            throw invalid(kind, source, e.getMessage(), "Fix the option in @ErrandTask or errand.flow.kinds." + kind);
        }
        customize(kind, builder, source);
        add(builder.build(), source);
        schedules.addAll(annotatedSchedules.of(found.schedules(), kind, source));
    }

    /**
     * Refuses a payload type that the node's JSON mapper cannot construct (an interface, a class without a
     * creator): decoding an empty object fails then with a definition error, whatever the JSON, whereas a
     * type that merely does not fit {@code {}} is fine.
     */
    private void requireReadable(HandlerMethods.Found found, Class<?> payloadType) {
        try {
            payloadCodec.decode("{}", payloadType);
        } catch (PayloadDecodingException e) {
            if (e.getCause() instanceof InvalidDefinitionException definition) {
                throw HandlerMethodSignature.refused(
                        found,
                        "Jackson cannot construct its payload type " + payloadType.getName() + " ("
                                + definition.getOriginalMessage() + ")",
                        "Make the payload a record or a class with a no-argument constructor (or a @JsonCreator"
                                + " constructor), not an interface or abstract class.");
            }
        } catch (RuntimeException e) {
            // Any other failure (a constructor that rejects the empty object) says Jackson can construct it.
        }
    }

    private void addRunnable(String kind, Class<? extends Runnable> type, String beanName) {
        String source = "persistent runnable " + type.getName() + " of PersistentRunnables bean '" + beanName + "'";
        AutowireCapableBeanFactory factory = beanFactory;
        TaskDefinition.Builder<Runnable> builder = TaskDefinition.builder(kind, cast(type), (runnable, context) -> {
            if (runnable == null) {
                throw new IllegalStateException("Task " + context.taskId() + " of kind '" + kind
                        + "' has no payload; it was not written by ErrandTaskExecutor");
            }
            // Dependencies are not part of the JSON: inject them into the decoded instance.
            factory.autowireBean(runnable);
            runnable.run();
        });
        ErrandProperties.FlowKind flow = flowKinds.get(kind);
        if (flow != null) {
            try {
                flow.applyLimits(builder);
                if (flow.getLimitKeyFrom() != null) {
                    builder.limitKeyFrom(flow.getLimitKeyFrom());
                }
            } catch (IllegalArgumentException e) {
                throw invalid(kind, source, e.getMessage(), "Fix errand.flow.kinds." + kind);
            }
        }
        customize(kind, builder, source);
        add(builder.build(), source);
    }

    private void customize(String kind, TaskDefinition.Builder<?> builder, String source) {
        for (ErrandTaskCustomizer customizer : customizers) {
            try {
                customizer.customize(kind, builder);
            } catch (IllegalArgumentException e) {
                throw invalid(
                        kind,
                        source,
                        "customizer " + customizer + " set an invalid option: " + e.getMessage(),
                        "Fix the ErrandTaskCustomizer bean.");
            }
        }
    }

    private void add(TaskDefinition<?> definition, String source) {
        ErrandTasks.Registration earlier = registrations.get(definition.kind());
        if (earlier != null) {
            throw new ErrandConfigurationException(
                    "Task kind '" + definition.kind() + "' is claimed twice: by " + earlier.source() + " and by "
                            + source + ".",
                    "Each kind needs exactly one handler: rename one of the kinds, or remove one of the handlers.");
        }
        registrations.put(definition.kind(), new ErrandTasks.Registration(definition, source));
    }

    private Class<?> payloadType(ErrandTask annotation, Class<?> userType, String kind, String source) {
        if (annotation.payload() != void.class) {
            return annotation.payload();
        }
        Class<?> resolved = ResolvableType.forClass(userType)
                .as(TaskHandler.class)
                .getGeneric(0)
                .resolve();
        if (resolved == null) {
            throw invalid(
                    kind,
                    source,
                    "its payload type cannot be read from TaskHandler's type argument",
                    "Implement TaskHandler<YourPayload> with a concrete type, or set @ErrandTask(payload = YourPayload.class).");
        }
        return resolved;
    }

    private static ErrandConfigurationException invalid(String kind, String source, String problem, String action) {
        return new ErrandConfigurationException(
                "Task kind '" + kind + "' of " + source + " is invalid: " + problem + ".", action);
    }

    @SuppressWarnings("unchecked")
    private static <T> Class<T> cast(Class<?> type) {
        return (Class<T>) type;
    }

    /** Calls the handler bean, looked up on first use: it may not exist yet when the node is built. */
    private static final class BeanHandler implements TaskHandler<Object> {
        private final BeanFactory beanFactory;
        private final String beanName;
        private volatile TaskHandler<Object> handler;

        BeanHandler(BeanFactory beanFactory, String beanName) {
            this.beanFactory = beanFactory;
            this.beanName = beanName;
        }

        @Override
        @SuppressWarnings("unchecked")
        public void handle(Object payload, TaskContext context) throws Exception {
            TaskHandler<Object> target = handler;
            if (target == null) {
                target = beanFactory.getBean(beanName, TaskHandler.class);
                if (beanFactory.isSingleton(beanName)) {
                    handler = target;
                }
            }
            target.handle(payload, context);
        }

        @Override
        public String toString() {
            return "bean '" + beanName + "'";
        }
    }

    /** Calls the handler bean's {@link FailureCallback}, looked up on first use. */
    private static final class BeanFailureCallback implements FailureCallback {
        private final BeanFactory beanFactory;
        private final String beanName;

        BeanFailureCallback(BeanFactory beanFactory, String beanName) {
            this.beanFactory = beanFactory;
            this.beanName = beanName;
        }

        @Override
        public void onFailure(FailedTask task, Connection connection) throws Exception {
            beanFactory.getBean(beanName, FailureCallback.class).onFailure(task, connection);
        }
    }
}
