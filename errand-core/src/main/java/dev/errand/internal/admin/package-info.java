/**
 * The admin API's implementation: argument checks and transactions around the store's queries.
 */
package dev.errand.internal.admin;
