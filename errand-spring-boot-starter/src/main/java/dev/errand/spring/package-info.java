/**
 * Errand on Spring: the {@link dev.errand.spring.ErrandTask} annotation, the {@link dev.errand.spring.ErrandClient}
 * that enqueues inside Spring-managed transactions, the transaction runner backed by the application's
 * {@code PlatformTransactionManager}, the persistent {@code TaskExecutor} and the lifecycle binding.
 * The auto-configuration in {@code dev.errand.spring.autoconfigure} wires them.
 */
package dev.errand.spring;
