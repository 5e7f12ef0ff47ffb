package dev.errand.spring.autoconfigure;

import dev.errand.spring.ErrandTask;
import dev.errand.task.TaskHandler;
import java.util.LinkedHashSet;
import java.util.Set;
import org.springframework.aop.scope.ScopedProxyUtils;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;

/**
 * Registers, at build time ({@code spring-boot:process-aot}), the reflection a native image needs to run the
 * application's {@link ErrandTask} handlers: each payload type for Jackson (its constructors, accessors and
 * fields, recursively), each handler class (its type argument is read at start-up), and each handler method
 * (found with {@code MethodIntrospector} and invoked by reflection). It reads the bean definitions as the
 * start-up discovery does, and refuses a bad handler method with the same message.
 */
public final class ErrandAotProcessor implements BeanFactoryInitializationAotProcessor {

    /** Creates the processor; Spring calls it. */
    public ErrandAotProcessor() {}

    @Override
    public BeanFactoryInitializationAotContribution processAheadOfTime(ConfigurableListableBeanFactory beanFactory) {
        Set<Class<?>> handlerTypes = new LinkedHashSet<>();
        Set<Class<?>> payloadTypes = new LinkedHashSet<>();
        for (String beanName : beanFactory.getBeanNamesForAnnotation(ErrandTask.class)) {
            Class<?> type = ScopedProxyUtils.isScopedTarget(beanName) ? null : beanFactory.getType(beanName, false);
            if (type != null) {
                Class<?> userType = ClassUtils.getUserClass(type);
                handlerTypes.add(userType);
                Class<?> payload = payloadType(beanFactory.findAnnotationOnBean(beanName, ErrandTask.class), userType);
                if (payload != null) {
                    payloadTypes.add(payload);
                }
            }
        }
        Set<HandlerMethods.Found> methods = new LinkedHashSet<>(HandlerMethods.in(beanFactory));
        for (HandlerMethods.Found found : methods) {
            payloadTypes.add(HandlerMethodSignature.of(found).payloadType());
        }
        if (handlerTypes.isEmpty() && methods.isEmpty()) {
            return null;
        }
        return (generationContext, code) -> {
            ReflectionHints reflection = generationContext.getRuntimeHints().reflection();
            handlerTypes.forEach(type -> reflection.registerType(type, MemberCategory.INTROSPECT_PUBLIC_METHODS));
            for (HandlerMethods.Found found : methods) {
                reflection.registerType(found.beanType(), MemberCategory.INTROSPECT_DECLARED_METHODS);
                reflection.registerMethod(found.method(), ExecutableMode.INVOKE);
            }
            payloadTypes.remove(Void.class);
            new BindingReflectionHintsRegistrar()
                    .registerReflectionHints(reflection, payloadTypes.toArray(new Class<?>[0]));
        };
    }

    private static Class<?> payloadType(ErrandTask annotation, Class<?> handlerType) {
        if (annotation != null && annotation.payload() != void.class) {
            return annotation.payload();
        }
        return ResolvableType.forClass(handlerType)
                .as(TaskHandler.class)
                .getGeneric(0)
                .resolve();
    }
}
