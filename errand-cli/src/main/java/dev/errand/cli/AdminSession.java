package dev.errand.cli;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;

/** A connection pool and an administering node on it, for one command; closing ends both. */
final class AdminSession implements AutoCloseable {

    private final HikariDataSource pool;
    private final Errand errand;

    private AdminSession(HikariDataSource pool, Errand errand) {
        this.pool = pool;
        this.errand = errand;
    }

    /** Connects with the options and builds the node; see {@link ConnectionOptions#adminNode}. */
    static AdminSession open(ConnectionOptions options) {
        HikariDataSource pool = options.connect();
        try {
            return new AdminSession(pool, ConnectionOptions.adminNode(pool, options.tablePrefix()));
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    /** The node: its admin API. */
    Errand errand() {
        return errand;
    }

    @Override
    public void close() {
        // Never started: close() has no thread to stop and writes nothing.
        errand.close();
        pool.close();
    }
}
