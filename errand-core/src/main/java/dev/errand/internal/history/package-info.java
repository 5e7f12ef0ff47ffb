/**
 * The attempt history: recording ended attempts ({@code AttemptHistory}, {@code AttemptRow}), pruning them past
 * their retention, and the history admin API.
 */
package dev.errand.internal.history;
