package dev.errand.spring.autoconfigure;

import dev.errand.spring.ErrandConfigurationException;
import dev.errand.spring.ErrandSchedule;
import dev.errand.spring.ErrandTask;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.aop.scope.ScopedProxyUtils;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;

/**
 * Finds the {@link ErrandTask} methods of the beans of a context, from the bean definitions only (no bean is
 * created). A {@code @Bean} method with {@link ErrandTask} is not one of them: it declares a handler bean.
 */
final class HandlerMethods {

    private HandlerMethods() {}

    /**
     * One {@link ErrandTask} method.
     *
     * @param beanName the bean's name
     * @param beanType the bean's class, without a proxy's subclass
     * @param method the annotated method, as declared on {@code beanType} or a super type
     * @param annotation the merged annotation, with {@code kind} and {@code value} aliased
     */
    record Found(String beanName, Class<?> beanType, Method method, ErrandTask annotation) {

        /** How start-up messages name the method, for example {@code @ErrandTask method send(Invoice, TaskContext) of bean 'billing' (com.example.Billing)}. */
        String source() {
            StringBuilder parameters = new StringBuilder();
            for (Class<?> type : method.getParameterTypes()) {
                parameters.append(parameters.length() == 0 ? "" : ", ").append(type.getSimpleName());
            }
            return "@ErrandTask method " + method.getName() + "(" + parameters + ") of bean '" + beanName + "' ("
                    + beanType.getName() + ")";
        }

        /** The {@link ErrandSchedule}s on the method. */
        Set<ErrandSchedule> schedules() {
            return AnnotatedElementUtils.findMergedRepeatableAnnotations(method, ErrandSchedule.class);
        }
    }

    /**
     * The {@link ErrandTask} methods of every bean, bean by bean in definition order.
     *
     * @throws ErrandConfigurationException if a method has {@link ErrandSchedule} without {@link ErrandTask}
     */
    static List<Found> in(ConfigurableListableBeanFactory beanFactory) {
        List<Found> found = new ArrayList<>();
        for (String beanName : beanFactory.getBeanDefinitionNames()) {
            if (ScopedProxyUtils.isScopedTarget(beanName)
                    || beanFactory.getBeanDefinition(beanName).isAbstract()) {
                continue;
            }
            Class<?> type = beanFactory.getType(beanName, false);
            if (type == null) {
                continue;
            }
            Class<?> userType = ClassUtils.getUserClass(type);
            if (!AnnotationUtils.isCandidateClass(userType, Set.of(ErrandTask.class, ErrandSchedule.class))) {
                continue;
            }
            Map<Method, ErrandTask> methods = MethodIntrospector.selectMethods(
                    userType, (MethodIntrospector.MetadataLookup<ErrandTask>) method -> annotation(method, beanName));
            methods.forEach((method, annotation) -> found.add(new Found(beanName, userType, method, annotation)));
        }
        return found;
    }

    private static ErrandTask annotation(Method method, String beanName) {
        if (AnnotatedElementUtils.hasAnnotation(method, Bean.class)) {
            return null; // the bean's own annotations are read by the class-level discovery
        }
        ErrandTask task = AnnotatedElementUtils.findMergedAnnotation(method, ErrandTask.class);
        if (task == null && AnnotatedElementUtils.hasAnnotation(method, ErrandSchedule.class)) {
            throw new ErrandConfigurationException(
                    "Method " + method.getDeclaringClass().getName() + "." + method.getName() + " of bean '" + beanName
                            + "' has @ErrandSchedule but no @ErrandTask, so its schedule has no task kind.",
                    "Put @ErrandTask(kind = \"...\") on the method too, or move @ErrandSchedule to the @ErrandTask"
                            + " handler whose kind it enqueues.");
        }
        return task;
    }
}
