/**
 * Errors: the one exception Errand throws for a failed database operation, and the rules for the rest.
 */
package dev.errand.error;
