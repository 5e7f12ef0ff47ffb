package dev.errand.internal.engine;

import dev.errand.spi.TaskListener;
import dev.errand.spi.TaskTracing;

/**
 * Who hears what the engine does: its own counters, the application's listeners and its tracing.
 *
 * @param stats the node's counters
 * @param listener the application's listeners, as one
 * @param tracing observes claims and completion batches; {@link TaskTracing#NONE} without tracing
 */
public record Observers(EngineStats stats, TaskListener listener, TaskTracing tracing) {}
