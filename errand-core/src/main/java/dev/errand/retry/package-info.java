/**
 * Retry policies: how long to wait before the next attempt of a failed task.
 */
package dev.errand.retry;
