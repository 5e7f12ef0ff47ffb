package dev.errand.internal.engine;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.OptionalInt;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns at start-up when the connection pool is smaller than what the node's queues need at once. A
 * task that waits for a connection is not failed for it (its attempt is given back), but it waits, and
 * the application's own requests wait with it. The pool's size is read where the pool exposes it, by
 * the getter names of HikariCP, Commons DBCP 2 and Tomcat JDBC, so that the core needs none of them.
 */
public final class PoolSizeCheck {

    private static final Logger log = LoggerFactory.getLogger(PoolSizeCheck.class);
    private static final String[] SIZE_GETTERS = {"getMaximumPoolSize", "getMaxTotal", "getMaxActive"};
    // The completer, the heartbeat, rescue and pruning, and outcome writes, as docs/CONFIGURATION.md counts.
    private static final int ENGINE_CONNECTIONS = 4;

    private PoolSizeCheck() {}

    /**
     * The connections a node with these queues may hold at once: see docs/CONFIGURATION.md. Workers hold
     * one only while they run a transactional task, so they count only if a transactional kind is registered.
     */
    public static int needed(Map<String, Integer> queues, boolean listens, boolean transactionalKinds) {
        int workers = transactionalKinds
                ? queues.values().stream().mapToInt(Integer::intValue).sum()
                : 0;
        return workers + queues.size() + ENGINE_CONNECTIONS + (listens ? 1 : 0);
    }

    /** The pool's maximum size, if the DataSource tells it. */
    public static OptionalInt poolSize(DataSource dataSource) {
        for (String getter : SIZE_GETTERS) {
            try {
                Method method = dataSource.getClass().getMethod(getter);
                Object size = method.invoke(dataSource);
                if (size instanceof Integer n && n > 0) {
                    return OptionalInt.of(n);
                }
            } catch (ReflectiveOperationException | RuntimeException notThisPool) {
                // Not a getter of this pool; try the next name.
            }
        }
        return OptionalInt.empty();
    }

    /**
     * Logs a warning if the pool is smaller than the node needs.
     *
     * @return true if it warned
     */
    public static boolean warnIfTooSmall(
            DataSource dataSource, Map<String, Integer> queues, boolean listens, boolean transactionalKinds) {
        OptionalInt size = poolSize(dataSource);
        int needed = needed(queues, listens, transactionalKinds);
        if (size.isEmpty() || size.getAsInt() >= needed) {
            return false;
        }
        log.warn(
                "Errand's connection pool has at most {} connections, but this node's queues {} may need {} at once"
                        + " (one per worker of a transactional task, one per queue's poller, {} for the engine{}), besides"
                        + " the application's own. Tasks will wait for connections without spending attempts. Make the pool"
                        + " larger (for HikariCP: maximumPoolSize, spring.datasource.hikari.maximum-pool-size) or the"
                        + " concurrency smaller.",
                size.getAsInt(),
                queues,
                needed,
                ENGINE_CONNECTIONS,
                listens ? ", one for PostgreSQL's LISTEN" : "");
        return true;
    }
}
