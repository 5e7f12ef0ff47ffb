package dev.errand.jpa.spring;

import dev.errand.jpa.EntityQueuesBuilder;

/**
 * Changes the {@link EntityQueuesBuilder} of the auto-configured entity queues after the
 * {@code errand.jpa.*} properties are applied, for example to set a clock or register a queue built at run
 * time.
 */
@FunctionalInterface
public interface EntityQueuesCustomizer {

    /** Customizes the builder. */
    void customize(EntityQueuesBuilder builder);
}
