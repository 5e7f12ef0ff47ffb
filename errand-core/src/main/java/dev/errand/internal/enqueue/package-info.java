/**
 * Enqueueing: resolving requests against this node's settings and inserting them on the caller's
 * connection.
 */
package dev.errand.internal.enqueue;
