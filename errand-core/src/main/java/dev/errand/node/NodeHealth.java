package dev.errand.node;

import java.util.Map;

/**
 * Whether this node's engine can do its work. A node is unhealthy while one of its long-lived threads
 * (a queue's poller, the completer, the heartbeat, rescue) keeps failing, or after one of them ended.
 * Each such thread survives any error, backs off and tries again; health tells an operator, and the
 * Spring Boot health indicator turns {@code DOWN}.
 *
 * @param healthy whether no thread is failing
 * @param problems what is failing, by thread, in words
 */
public record NodeHealth(boolean healthy, Map<String, String> problems) {

    /** Copies the map. */
    public NodeHealth {
        problems = Map.copyOf(problems);
    }
}
