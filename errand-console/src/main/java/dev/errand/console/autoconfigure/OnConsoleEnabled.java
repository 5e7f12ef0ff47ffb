package dev.errand.console.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;

/**
 * On when {@code errand.console.enabled=true}; off when it is false; when it is unset, on only if Spring Security
 * is on the class path, so that a console is never served open by default.
 */
class OnConsoleEnabled extends SpringBootCondition {

    static final String SECURITY_CLASS = "org.springframework.security.web.SecurityFilterChain";

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Boolean enabled = context.getEnvironment().getProperty("errand.console.enabled", Boolean.class);
        if (enabled != null) {
            return enabled
                    ? ConditionOutcome.match("errand.console.enabled is true")
                    : ConditionOutcome.noMatch("errand.console.enabled is false");
        }
        return ClassUtils.isPresent(SECURITY_CLASS, context.getClassLoader())
                ? ConditionOutcome.match("Spring Security is present and errand.console.enabled is unset")
                : ConditionOutcome.noMatch("Spring Security is absent: set errand.console.enabled=true to serve the"
                        + " console without it (see docs/CONSOLE.md for what that exposes)");
    }
}
