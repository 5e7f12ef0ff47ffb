/**
 * Storage: the SQL that reads and writes task rows, and the dialects that adapt it to each database.
 * Internal to Errand; applications use {@code dev.errand.Errand} and the admin API instead.
 */
package dev.errand.store;
