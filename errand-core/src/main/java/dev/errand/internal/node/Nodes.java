package dev.errand.internal.node;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The node behind each {@code Errand}, for tests that run a sweep at once instead of waiting for its interval
 * ({@code Nodes.of(errand).rescueExpiredLeases()}). {@code Errand} registers its node when it is built; this
 * package cannot name {@code Errand} (nothing depends on the composition root), so the key is the facade as an
 * object.
 */
public final class Nodes {

    private static final Map<Object, Node> NODES = Collections.synchronizedMap(new WeakHashMap<>());

    private Nodes() {}

    /** Records the node behind a facade; {@code Errand}'s constructor calls it once. */
    public static void register(Object facade, Node node) {
        if (facade == null || node == null) {
            throw new IllegalArgumentException("facade and node must not be null");
        }
        NODES.put(facade, node);
    }

    /**
     * The node behind an {@code Errand}.
     *
     * @throws IllegalArgumentException if {@code errand} is not an Errand built by {@code ErrandBuilder}
     */
    public static Node of(Object errand) {
        Node node = NODES.get(errand);
        if (node == null) {
            throw new IllegalArgumentException(
                    "No node behind " + errand + ": pass an Errand built with Errand.builder(dataSource).build()");
        }
        return node;
    }
}
