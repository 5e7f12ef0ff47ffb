package dev.errand.internal.wakeup;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Listens on a PostgreSQL channel and wakes the poller of the queue named in each notification.
 * Enqueue sends the notification inside its transaction, so it arrives only after commit. The
 * listener holds one connection; when it drops, the listener reconnects with back-off and wakes every
 * poller, since notifications sent meanwhile are lost.
 */
public final class PostgresNotificationListener implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PostgresNotificationListener.class);
    private static final int RECEIVE_TIMEOUT_MILLIS = 500;

    private final DataSource dataSource;
    private final String channel;
    private final WakeUps wakeUps;
    private final Thread thread;
    private volatile boolean running = true;

    /**
     * Starts listening on a background thread.
     *
     * @param dataSource where to take the listening connection from
     * @param channel the channel name, sent with {@code pg_notify}
     * @param wakeUps the signals to fire
     * @param threadName the listener thread's name
     */
    public PostgresNotificationListener(DataSource dataSource, String channel, WakeUps wakeUps, String threadName) {
        this.dataSource = dataSource;
        this.channel = channel;
        this.wakeUps = wakeUps;
        this.thread = new Thread(this::listen, threadName);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void listen() {
        Duration backoff = Duration.ofMillis(100);
        int failuresInARow = 0;
        while (running) {
            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(true);
                try (Statement statement = connection.createStatement()) {
                    statement.execute("LISTEN \"" + channel + "\"");
                }
                PGConnection pg = connection.unwrap(PGConnection.class);
                wakeUps.wakeAll();
                backoff = Duration.ofMillis(100);
                if (failuresInARow > 0) {
                    log.info("Errand's LISTEN connection is back after {} failed tries", failuresInARow);
                    failuresInARow = 0;
                }
                while (running) {
                    PGNotification[] notifications = pg.getNotifications(RECEIVE_TIMEOUT_MILLIS);
                    if (notifications != null) {
                        for (PGNotification notification : notifications) {
                            wakeUps.wake(notification.getParameter());
                        }
                    }
                }
                // The connection goes back to a pool: it must not keep collecting notifications there.
                try (Statement statement = connection.createStatement()) {
                    statement.execute("UNLISTEN *");
                }
            } catch (Throwable e) {
                // Nothing may end this thread for good; until it reconnects, polling wakes the workers.
                if (!running) {
                    return;
                }
                // Once per episode: the listener reconnects by itself, with a growing pause.
                if (++failuresInARow == 1) {
                    log.warn(
                            "Errand's LISTEN connection failed ({}); reconnecting until it works, polling meanwhile",
                            e.toString());
                } else {
                    log.debug("Errand's LISTEN connection failed again ({}); next try in {} ms", e, backoff.toMillis());
                }
                sleep(backoff);
                backoff = backoff.multipliedBy(2).compareTo(Duration.ofSeconds(10)) > 0
                        ? Duration.ofSeconds(10)
                        : backoff.multipliedBy(2);
            }
        }
    }

    private void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    /** Stops listening and waits for the thread to end. */
    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
