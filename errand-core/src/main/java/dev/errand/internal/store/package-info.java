/**
 * Storage: every SQL statement on Errand's tables, Errand's own short transactions, and the dialects
 * that adapt the SQL to each database.
 */
package dev.errand.internal.store;
