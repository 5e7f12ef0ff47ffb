/**
 * The task admin API's implementation: argument checks and transactions around the task table's queries.
 * Each capability's admin implementation lives in its own package.
 */
package dev.errand.internal.admin;
