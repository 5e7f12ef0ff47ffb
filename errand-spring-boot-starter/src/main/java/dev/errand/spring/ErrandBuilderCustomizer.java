package dev.errand.spring;

import dev.errand.ErrandBuilder;

/**
 * Changes the {@link ErrandBuilder} after the {@code errand.*} properties, task kinds, transaction runner
 * and listeners were applied, and before the node is built. Use it for settings that have no property,
 * such as {@code defaultRetryPolicy} or {@code clock}. Customizers run in {@code @Order}.
 */
@FunctionalInterface
public interface ErrandBuilderCustomizer {

    /** Customizes the builder. */
    void customize(ErrandBuilder builder);
}
