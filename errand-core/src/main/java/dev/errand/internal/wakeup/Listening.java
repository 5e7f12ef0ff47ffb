package dev.errand.internal.wakeup;

import javax.sql.DataSource;

/**
 * Whether a node listens for PostgreSQL's wake-up notifications, and on which connections.
 *
 * @param enabled false to poll only: no LISTEN connection, no check of the data source
 * @param dataSource where the LISTEN connection comes from; null for the node's own data source. A direct
 *     connection to the server, for a node whose data source goes through a pooler in transaction mode
 * @param nodeDataSourceDelivers whether a notification sent through the node's data source reached a LISTEN on
 *     another of its connections when {@link ListenerStart#check} probed it; null before that, or when it could not
 */
public record Listening(boolean enabled, DataSource dataSource, Boolean nodeDataSourceDelivers) {

    /** Listens on a connection of the node's own data source: the default. */
    public static final Listening DEFAULT = new Listening(true, null, null);

    /** The data source to listen on: {@link #dataSource()} or, without one, {@code nodeDataSource}. */
    public DataSource from(DataSource nodeDataSource) {
        return dataSource != null ? dataSource : nodeDataSource;
    }

    /** The same, with what the probe of the node's data source found. */
    Listening probed(Boolean delivers) {
        return new Listening(enabled, dataSource, delivers);
    }
}
