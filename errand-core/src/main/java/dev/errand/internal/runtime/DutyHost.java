package dev.errand.internal.runtime;

import dev.errand.node.NodeHealth;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a node's periodic duties: each at a fixed delay on a daemon thread named after its {@link Duty#thread()},
 * leader duties only while {@code leading} says so. Every run's outcome goes to one {@link Problems}, so a duty
 * that keeps failing shows in the node's health under its name, and a run that throws never stops the duty.
 */
public final class DutyHost {

    private static final Logger log = LoggerFactory.getLogger(DutyHost.class);

    private final String threadPrefix;
    private final Problems problems = new Problems();
    private final Map<Duty.Scope, List<ScheduledExecutorService>> running = new LinkedHashMap<>();

    /** @param threadPrefix the node's thread name prefix */
    public DutyHost(String threadPrefix) {
        this.threadPrefix = threadPrefix;
    }

    /**
     * Starts the duties of one scope (each must have that scope); nothing happens if that scope runs. A leader
     * duty's run first asks {@code leading} and does nothing unless this node leads.
     */
    public synchronized void start(Duty.Scope scope, List<Duty> duties, BooleanSupplier leading) {
        if (running.containsKey(scope)) {
            return;
        }
        Map<String, ScheduledExecutorService> threads = new LinkedHashMap<>();
        for (Duty duty : duties) {
            if (duty.scope() != scope) {
                throw new IllegalArgumentException("duty '" + duty.name() + "' is " + duty.scope() + ", not " + scope);
            }
            // A new run of the scope starts healthy: what failed before a stop is not this run's problem.
            problems.succeeded(duty.name());
            ScheduledExecutorService executor =
                    threads.computeIfAbsent(duty.thread(), thread -> singleThread(threadPrefix + thread));
            schedule(executor, duty, scope == Duty.Scope.LEADER ? leading : () -> true);
        }
        running.put(scope, new ArrayList<>(threads.values()));
    }

    /** Stops the duties of one scope; a run in progress is interrupted and its transaction rolled back. */
    public synchronized void stop(Duty.Scope scope) {
        List<ScheduledExecutorService> executors = running.remove(scope);
        if (executors != null) {
            executors.forEach(ScheduledExecutorService::shutdownNow);
        }
    }

    /** Whether the duties can do their work: the failures of each, by name. */
    public NodeHealth health() {
        return problems.health();
    }

    private void schedule(ScheduledExecutorService executor, Duty duty, BooleanSupplier leading) {
        long millis = duty.interval().toMillis();
        executor.scheduleWithFixedDelay(
                () -> {
                    try {
                        if (leading.getAsBoolean()) {
                            duty.body().run();
                        }
                        problems.succeeded(duty.name());
                    } catch (Throwable failure) {
                        if (executor.isShutdown()) {
                            // Stopped while it ran: the stop interrupted it, or what it used was closed after the
                            // stop (a pool the application closes with the node). Not a problem of the node.
                            log.debug("Errand's {} ended after its stop: {}", duty.name(), failure.toString());
                            return;
                        }
                        // A scheduled run that throws is never run again: nothing may escape.
                        problems.failed(duty.name(), failure);
                    }
                },
                millis,
                millis,
                TimeUnit.MILLISECONDS);
    }

    /** A single daemon thread with this name, for work that must not run at the same time as each other. */
    public static ScheduledExecutorService singleThread(String name) {
        return Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        });
    }
}
