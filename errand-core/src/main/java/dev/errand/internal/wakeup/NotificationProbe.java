package dev.errand.internal.wakeup;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Finds out whether a PostgreSQL notification sent on one connection reaches a LISTEN on another. It does when both
 * reach the server directly or through a pooler in session mode; it does not through a pooler in transaction or
 * statement mode (PgBouncer's usual setting), which hands the listening session's server connection to other clients
 * between transactions and passes no notification to a client outside a transaction.
 */
final class NotificationProbe {

    /** What the probe found. */
    enum Result {
        /** The notification arrived: LISTEN works on that path. */
        DELIVERED,
        /** It did not arrive in time. */
        NOT_DELIVERED
    }

    private final Duration patience;

    /** @param patience how long to wait for the notification; it takes milliseconds when delivery works */
    NotificationProbe(Duration patience) {
        this.patience = patience;
    }

    /**
     * Listens on a connection of {@code listenFrom}, on a channel of the probe's own, sends one notification from a
     * connection of {@code sendFrom} in auto-commit, and waits for it.
     */
    Result probe(DataSource listenFrom, DataSource sendFrom) throws SQLException {
        // A channel of its own: no node hears the probe, and the probe hears no node.
        String channel = "errand_probe_" + UUID.randomUUID().toString().replace("-", "");
        String payload = UUID.randomUUID().toString();
        try (Connection listening = listenFrom.getConnection()) {
            listening.setAutoCommit(true);
            try (Statement statement = listening.createStatement()) {
                statement.execute("LISTEN " + channel);
            }
            try {
                try (Connection sending = sendFrom.getConnection()) {
                    sending.setAutoCommit(true);
                    try (PreparedStatement notify = sending.prepareStatement("SELECT pg_notify(?, ?)")) {
                        notify.setString(1, channel);
                        notify.setString(2, payload);
                        notify.execute();
                    }
                }
                return awaitPayload(listening.unwrap(PGConnection.class), payload);
            } finally {
                // Through a transaction-mode pooler this may reach another server connection: harmless, the
                // channel is never notified again.
                try (Statement statement = listening.createStatement()) {
                    statement.execute("UNLISTEN " + channel);
                }
            }
        }
    }

    private Result awaitPayload(PGConnection listening, String payload) throws SQLException {
        long deadline = System.nanoTime() + patience.toNanos();
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            PGNotification[] notifications = listening.getNotifications((int) Math.max(1, left / 1_000_000));
            if (notifications != null) {
                for (PGNotification notification : notifications) {
                    if (payload.equals(notification.getParameter())) {
                        return Result.DELIVERED;
                    }
                }
            }
        }
        return Result.NOT_DELIVERED;
    }

    /**
     * The PostgreSQL driver's {@code prepareThreshold} on connections of {@code dataSource}: after how many
     * executions it prepares a statement on the server (0: never), or -1 when the driver cannot say.
     */
    static int prepareThreshold(DataSource dataSource) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return connection.isWrapperFor(PGConnection.class)
                    ? connection.unwrap(PGConnection.class).getPrepareThreshold()
                    : -1;
        }
    }
}
