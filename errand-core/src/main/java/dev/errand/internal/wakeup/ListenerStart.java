package dev.errand.internal.wakeup;

import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks a PostgreSQL node's data source and starts its notification listener where LISTEN works. A connection
 * pooler in transaction mode (PgBouncer's usual setting) passes no notifications, and breaks the driver's
 * server-side prepared statements unless {@code prepareThreshold=0}: such a data source is refused with what to do
 * before anything runs on it, or, once the driver is set right, the node polls instead of listening and says so,
 * unless a direct connection is given to listen on.
 */
public final class ListenerStart {

    private static final Logger log = LoggerFactory.getLogger(ListenerStart.class);

    /**
     * How long a probe notification may take; it takes milliseconds when delivery works at all. A node behind a
     * transaction-mode pooler waits this long at build, and, before it refuses a driver that prepares statements on
     * the server, three times as long again.
     */
    public static final Duration PATIENCE = Duration.ofSeconds(2);

    private final Listening listening;
    private final NotificationProbe probe;
    private final NotificationProbe slowProbe;

    /** Starts listeners as {@code listening} says, waiting up to {@code patience} for a probe notification. */
    public ListenerStart(Listening listening, Duration patience) {
        this.listening = listening;
        this.probe = new NotificationProbe(patience);
        this.slowProbe = new NotificationProbe(patience.multipliedBy(3));
    }

    /**
     * Probes whether notifications pass through {@code nodeDataSource}, before migrations or anything else run on
     * it; does nothing when listening is off. Returns the settings with the finding.
     *
     * @throws IllegalStateException when the data source goes through a transaction-mode pooler while the driver
     *     prepares statements on the server, which would fail statements at random
     */
    public Listening check(DataSource nodeDataSource) {
        if (!listening.enabled()) {
            return listening;
        }
        try {
            boolean delivers = probe.probe(nodeDataSource, nodeDataSource) == NotificationProbe.Result.DELIVERED;
            int threshold = delivers ? 0 : NotificationProbe.prepareThreshold(nodeDataSource);
            if (threshold > 0) {
                // A refusal must not come from a database too busy to deliver in time: one longer try first. Without
                // a refusal at stake, a miss costs only polling, so the node is not held up for it.
                delivers = slowProbe.probe(nodeDataSource, nodeDataSource) == NotificationProbe.Result.DELIVERED;
                if (!delivers) {
                    refuse(threshold);
                }
            }
            return listening.probed(delivers);
        } catch (SQLException e) {
            // The database is not there yet: what needs it will say so; the listener reconnects by itself.
            log.warn(
                    "Errand could not check that PostgreSQL notifications pass through its data source ({})",
                    e.getMessage());
            return listening;
        }
    }

    /**
     * Starts listening on {@code channel} where the check found that notifications arrive.
     *
     * @param nodeDataSource the node's data source, through which tasks are enqueued (and notified)
     * @param channel the channel enqueues notify
     * @param wakeUps the pollers to wake
     * @param threadName the listener thread's name
     * @return the running listener, or null when the node polls instead
     */
    public PostgresNotificationListener start(
            DataSource nodeDataSource, String channel, WakeUps wakeUps, String threadName) {
        if (!listening.enabled()) {
            log.info("Errand's PostgreSQL notifications are off: nodes wake up by polling each queue");
            return null;
        }
        if (listening.dataSource() == null) {
            if (Boolean.FALSE.equals(listening.nodeDataSourceDelivers())) {
                log.warn("Errand receives no PostgreSQL notifications through its data source: it goes through a"
                        + " connection pooler in transaction or statement mode (PgBouncer's pool_mode = transaction),"
                        + " which passes none between transactions. Nodes wake up by polling each queue instead"
                        + " (its poll interval). For wake-ups within milliseconds give a direct connection to listen"
                        + " on (errand.notifications.url, or ErrandBuilder.notificationDataSource); to poll without"
                        + " this check, set errand.notifications.enabled=false (ErrandBuilder.notifications(false))");
                return null;
            }
            return listener(nodeDataSource, channel, wakeUps, threadName);
        }
        try {
            if (probe.probe(listening.dataSource(), nodeDataSource) == NotificationProbe.Result.NOT_DELIVERED) {
                log.warn("Errand receives no PostgreSQL notifications on the connection given to listen on"
                        + " (errand.notifications.url, ErrandBuilder.notificationDataSource): it must reach the"
                        + " server directly or through a pooler in session mode, not in transaction mode. Nodes wake"
                        + " up by polling each queue instead");
                return null;
            }
        } catch (SQLException e) {
            log.warn(
                    "Errand could not check that PostgreSQL notifications reach the connection given to listen on"
                            + " ({}); listening anyway",
                    e.getMessage());
        }
        return listener(nodeDataSource, channel, wakeUps, threadName);
    }

    private PostgresNotificationListener listener(
            DataSource nodeDataSource, String channel, WakeUps wakeUps, String threadName) {
        return new PostgresNotificationListener(listening.from(nodeDataSource), channel, wakeUps, threadName);
    }

    private static void refuse(int threshold) {
        throw new IllegalStateException("Errand's data source goes through a connection pooler in transaction or"
                + " statement mode (PgBouncer's pool_mode = transaction): a PostgreSQL notification sent on one"
                + " of its connections never reached a LISTEN on another. Such a pooler hands each transaction"
                + " any server connection, while the PostgreSQL driver prepares a statement on the server after"
                + " prepareThreshold=" + threshold + " executions, so statements would fail at random with"
                + " 'prepared statement \"S_1\" does not exist'. Add prepareThreshold=0 to the JDBC URL (or"
                + " the data source's properties), or connect in session mode. See docs/DEPLOYMENT.md");
    }
}
