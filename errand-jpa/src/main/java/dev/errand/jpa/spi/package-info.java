/**
 * What applications and hosts may plug into entity queues: who runs the transactions
 * ({@link dev.errand.jpa.spi.EntityTransactions}).
 */
package dev.errand.jpa.spi;
