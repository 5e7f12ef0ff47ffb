/**
 * Entity queues on Spring: transactions of the application's {@code JpaTransactionManager}
 * ({@link dev.errand.jpa.spring.SpringEntityTransactions}), the lifecycle binding, and the customizer of the
 * auto-configuration in {@code dev.errand.jpa.spring.autoconfigure}.
 */
package dev.errand.jpa.spring;
