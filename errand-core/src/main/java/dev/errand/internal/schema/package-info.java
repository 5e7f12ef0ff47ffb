/**
 * The schema: Errand's versioned migrations, applied with Flyway in a history table of its own.
 */
package dev.errand.internal.schema;
