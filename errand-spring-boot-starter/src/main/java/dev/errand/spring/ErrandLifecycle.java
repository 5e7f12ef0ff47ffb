package dev.errand.spring;

import dev.errand.Errand;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Binds an {@link Errand} node to the application context: the node starts running tasks once the context
 * has refreshed, and stops gracefully (up to {@code errand.shutdown-timeout}) when the context closes, before
 * any bean is destroyed. The stop is synchronous, so the DataSource is still open while running tasks finish.
 * A stopped Errand node starts again, so a context that is stopped and started again restarts it.
 */
public final class ErrandLifecycle implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ErrandLifecycle.class);

    private final Errand errand;
    private volatile boolean running;

    /** Creates the binding for {@code errand}. */
    public ErrandLifecycle(Errand errand) {
        this.errand = Objects.requireNonNull(errand, "errand must not be null");
    }

    /** Starts the node (a node with {@code errand.processing-enabled=false} starts nothing). */
    @Override
    public void start() {
        errand.start();
        running = true;
        log.info(
                "Errand node {} {} on {}: queues {}",
                errand.settings().nodeId(),
                errand.settings().processingEnabled() ? "is running tasks" : "only enqueues (processing is off)",
                errand.dialectName(),
                errand.settings().queues());
    }

    /** Stops the node gracefully, waiting up to its shutdown timeout for running tasks. */
    @Override
    public void stop() {
        boolean finished = errand.stop();
        running = false;
        if (!finished) {
            log.warn(
                    "Errand node {} stopped with tasks still running; their leases will expire and they will be"
                            + " rescued",
                    errand.settings().nodeId());
        }
    }

    /** Whether {@link #start()} ran and {@link #stop()} has not. */
    @Override
    public boolean isRunning() {
        return running;
    }

    /**
     * {@link SmartLifecycle#DEFAULT_PHASE}: the node starts after, and stops before, components in lower
     * phases, such as the web server, so handlers can still use them while they finish.
     */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE;
    }
}
