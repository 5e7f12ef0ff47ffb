package dev.errand.jpa.spring;

import dev.errand.jpa.EntityQueues;
import org.springframework.context.SmartLifecycle;

/**
 * Binds {@link EntityQueues} to the application context: they start processing once the context has
 * refreshed, and stop gracefully (up to {@code errand.jpa.shutdown-timeout}) when it closes, before any bean
 * is destroyed, so that the EntityManagerFactory is still open while running items finish.
 */
public final class EntityQueuesLifecycle implements SmartLifecycle {

    private final EntityQueues queues;
    private volatile boolean running;

    /**
     * Creates the binding.
     *
     * @throws IllegalArgumentException if {@code queues} is null
     */
    public EntityQueuesLifecycle(EntityQueues queues) {
        if (queues == null) {
            throw new IllegalArgumentException("queues must not be null");
        }
        this.queues = queues;
    }

    /** Starts the queues (with {@code errand.jpa.processing-enabled=false} they only check their indexes). */
    @Override
    public void start() {
        queues.start();
        running = true;
    }

    /** Stops the queues, waiting up to their shutdown timeout for running items. */
    @Override
    public void stop() {
        queues.close();
        running = false;
    }

    /** Whether {@link #start()} ran and {@link #stop()} has not. */
    @Override
    public boolean isRunning() {
        return running;
    }

    /** {@link SmartLifecycle#DEFAULT_PHASE}, as Errand's own node: after the web server starts, before it stops. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE;
    }
}
