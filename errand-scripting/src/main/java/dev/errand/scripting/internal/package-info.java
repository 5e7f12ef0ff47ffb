/**
 * Scripting's internals: the script table's SQL per database, its migration and the JDBC script admin. Not an API;
 * it may change in any release.
 */
package dev.errand.scripting.internal;
