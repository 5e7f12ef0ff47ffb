package dev.errand.spring.autoconfigure;

import dev.errand.spring.ErrandConfigurationException;
import dev.errand.task.TaskContext;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;

/**
 * The shape of an {@code @ErrandTask} method: which parameter is the payload (and its type) and which, if any,
 * is the {@link TaskContext}. Built only from a valid method; anything else is refused with what to fix.
 *
 * @param payloadType the payload's class
 * @param payloadIndex the payload parameter's position
 * @param contextIndex the context parameter's position, or -1 if the method takes none
 */
record HandlerMethodSignature(Class<?> payloadType, int payloadIndex, int contextIndex) {

    private static final String SHAPE = "A handler method takes the payload (Void for a kind without payload) and"
            + " optionally the TaskContext, returns void, and is neither static nor private";

    /**
     * Reads the signature of {@code found}'s method.
     *
     * @throws ErrandConfigurationException if the method cannot be a handler; the message names the bean, the
     *     method and what to fix
     */
    static HandlerMethodSignature of(HandlerMethods.Found found) {
        Method method = found.method();
        int modifiers = method.getModifiers();
        if (Modifier.isStatic(modifiers)) {
            throw refused(found, "it is static", "Make it an instance method of the bean.");
        }
        if (Modifier.isPrivate(modifiers)) {
            throw refused(
                    found,
                    "it is private, so Spring's proxies and Errand cannot call it",
                    "Make it public (or package-private).");
        }
        if (method.getReturnType() != void.class) {
            throw refused(
                    found,
                    "it returns " + method.getReturnType().getSimpleName() + ", which Errand would drop",
                    "Return void; enqueue what follows with the ErrandClient or context.continueWith.");
        }
        if (found.annotation().payload() != void.class) {
            throw refused(
                    found,
                    "it sets payload = " + found.annotation().payload().getSimpleName()
                            + ", which only a class-level handler needs",
                    "Remove the payload attribute: the method's payload parameter gives the type.");
        }
        int contextIndex = -1;
        List<Integer> payloads = new ArrayList<>();
        Parameter[] parameters = method.getParameters();
        for (int i = 0; i < parameters.length; i++) {
            Parameter parameter = parameters[i];
            Class<?> type = parameter.getType();
            if (type == TaskContext.class) {
                if (contextIndex >= 0) {
                    throw refused(found, "it takes the TaskContext twice", "Keep one TaskContext parameter.");
                }
                contextIndex = i;
            } else if (type.isPrimitive()) {
                throw refused(
                        found,
                        "parameter " + (i + 1) + " is the primitive " + type.getName()
                                + ", which a task without payload cannot fill",
                        "Use its wrapper class (" + wrapper(type) + ") or a record.");
            } else if (Connection.class.isAssignableFrom(type)) {
                throw refused(
                        found,
                        "parameter " + (i + 1) + " is a java.sql.Connection, which Errand does not pass",
                        "Take the TaskContext instead and call context.connection().");
            } else if (parameter.getParameterizedType() != type) {
                throw refused(
                        found,
                        "parameter " + (i + 1) + " has the generic type "
                                + parameter.getParameterizedType().getTypeName()
                                + ", which Errand cannot decode (payloads are read by their class)",
                        "Wrap it in a record, for example record Lines(List<Line> lines), and take that.");
            } else {
                payloads.add(i);
            }
        }
        if (payloads.isEmpty()) {
            throw refused(
                    found,
                    "it has no payload parameter",
                    "Add the payload as a parameter: the type Jackson reads the task's JSON into, or Void for a kind"
                            + " without payload.");
        }
        if (payloads.size() > 1) {
            StringBuilder types = new StringBuilder();
            for (int index : payloads) {
                types.append(types.length() == 0 ? "" : " and ")
                        .append(parameters[index].getType().getSimpleName());
            }
            throw refused(
                    found,
                    "it has " + payloads.size() + " payload parameters (" + types + ")",
                    "Take one payload: put the values in one record.");
        }
        int payloadIndex = payloads.get(0);
        return new HandlerMethodSignature(parameters[payloadIndex].getType(), payloadIndex, contextIndex);
    }

    private static String wrapper(Class<?> primitive) {
        return primitive == int.class
                ? "Integer"
                : primitive == char.class
                        ? "Character"
                        : Character.toUpperCase(primitive.getName().charAt(0))
                                + primitive.getName().substring(1);
    }

    static ErrandConfigurationException refused(HandlerMethods.Found found, String problem, String action) {
        return new ErrandConfigurationException(
                "Task kind '" + found.annotation().value() + "' of " + found.source() + " is invalid: " + problem + ". "
                        + SHAPE + ".",
                action);
    }
}
