package dev.errand.spring.autoconfigure;

import dev.errand.task.TaskContext;
import dev.errand.task.TaskHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.util.ReflectionUtils;

/**
 * Calls an {@code @ErrandTask} method on its bean, which is looked up on first use (it may not exist yet when
 * the node is built). The call goes through the bean as the context holds it, so that a proxy's advice
 * ({@code @Transactional}, metrics, security) applies. What the method throws fails the attempt as a
 * {@link TaskHandler}'s exception would.
 */
final class MethodTaskHandler implements TaskHandler<Object> {

    private final BeanFactory beanFactory;
    private final HandlerMethods.Found found;
    private final HandlerMethodSignature signature;
    private volatile Target target;

    MethodTaskHandler(BeanFactory beanFactory, HandlerMethods.Found found, HandlerMethodSignature signature) {
        this.beanFactory = beanFactory;
        this.found = found;
        this.signature = signature;
    }

    @Override
    public void handle(Object payload, TaskContext context) throws Exception {
        Target current = target();
        Object[] arguments = new Object[found.method().getParameterCount()];
        arguments[signature.payloadIndex()] = payload;
        if (signature.contextIndex() >= 0) {
            arguments[signature.contextIndex()] = context;
        }
        try {
            current.method().invoke(current.bean(), arguments);
        } catch (InvocationTargetException e) {
            Throwable thrown = e.getCause();
            if (thrown instanceof Exception exception) {
                throw exception;
            }
            if (thrown instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    private Target target() {
        Target current = target;
        if (current != null) {
            return current;
        }
        Object bean = beanFactory.getBean(found.beanName());
        // A JDK proxy exposes the interface's method; a CGLIB proxy overrides the class's own.
        Method invocable = AopUtils.selectInvocableMethod(found.method(), bean.getClass());
        ReflectionUtils.makeAccessible(invocable);
        current = new Target(bean, invocable);
        if (beanFactory.isSingleton(found.beanName())) {
            target = current;
        }
        return current;
    }

    @Override
    public String toString() {
        return "method " + found.method().getName() + " of bean '" + found.beanName() + "'";
    }

    private record Target(Object bean, Method method) {}
}
