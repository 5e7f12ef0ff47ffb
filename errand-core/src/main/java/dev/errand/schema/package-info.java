/**
 * The schema: table names and the versioned migrations that create them.
 */
package dev.errand.schema;
