/**
 * Transactions: who begins, commits and rolls back the transaction a transactional handler runs in.
 */
package dev.errand.transaction;
