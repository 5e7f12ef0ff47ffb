/**
 * Enqueueing: describing a task to run and inserting it in the caller's transaction.
 */
package dev.errand.enqueue;
