package dev.errand.internal.engine;

import dev.errand.spi.TaskListener;

/**
 * Who hears what the engine does: its own counters and the application's listeners.
 *
 * @param stats the node's counters
 * @param listener the application's listeners, as one
 */
public record Observers(EngineStats stats, TaskListener listener) {}
