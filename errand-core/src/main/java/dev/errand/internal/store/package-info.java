/**
 * Storage: the SQL on the task table and its cancel requests, the inserters, Errand's own short
 * transactions, and the dialects that adapt the SQL to each database. Each capability's tables have their
 * SQL in the capability's own package.
 */
package dev.errand.internal.store;
