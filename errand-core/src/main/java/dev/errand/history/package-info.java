/**
 * Attempt history: one row per ended attempt of a task, with its node, times, outcome and error, kept after
 * the task itself is gone. Read it through {@link dev.errand.Errand#history()}.
 */
package dev.errand.history;
