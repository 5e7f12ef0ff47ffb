package dev.errand.internal.cluster;

import dev.errand.config.Names;
import dev.errand.config.TablePrefix;
import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.Micros;
import dev.errand.node.ControlChange;
import dev.errand.spi.DatabaseClock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes and reads the {@code control_change} table for one actor. The row is written on the caller's
 * connection, so a change and its audit row commit together or not at all.
 */
public final class ControlAudit {

    /** The longest detail stored; a longer one is cut, since it only describes values already checked. */
    static final int DETAIL_LENGTH = 1000;

    private final Dialect dialect;
    private final TablePrefix tables;
    private final String table;
    private final DatabaseClock clock;
    private final String actor;

    /**
     * Creates the audit of a table prefix.
     *
     * @param dialect the dialect
     * @param tables the table names
     * @param clock the node's clock, whose offset the time of each change reads
     * @param actor who the changes are recorded for
     */
    public ControlAudit(Dialect dialect, TablePrefix tables, DatabaseClock clock, String actor) {
        this.dialect = dialect;
        this.tables = tables;
        this.table = tables.controlChangeTable();
        this.clock = clock;
        this.actor = actor;
    }

    /**
     * The same audit for another actor.
     *
     * @throws IllegalArgumentException if {@code actor} is null, blank, longer than 200 characters or holds
     *     control characters
     */
    public ControlAudit as(String actor) {
        return new ControlAudit(dialect, tables, clock, Names.require("actor", actor, 200));
    }

    /** Who the changes are recorded for. */
    public String actor() {
        return actor;
    }

    /**
     * Records one change on {@code c}, in its transaction.
     *
     * @param c the connection of the change's transaction
     * @param action what was done
     * @param target what it was done to
     * @param detail the values set, or {@code null}
     */
    public void record(Connection c, String action, String target, String detail) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement("INSERT INTO " + table + " (changed_at, actor, action, target, detail) VALUES ("
                        + dialect.timePlusMicros() + ", ?, ?, ?, ?)")) {
            s.setLong(1, Micros.of(clock.offset()));
            s.setString(2, actor);
            s.setString(3, action);
            s.setString(4, target);
            s.setString(
                    5,
                    detail == null || detail.length() <= DETAIL_LENGTH ? detail : detail.substring(0, DETAIL_LENGTH));
            s.executeUpdate();
        }
    }

    /** The latest {@code limit} changes, newest first. */
    public List<ControlChange> recent(Connection c, int limit) throws SQLException {
        List<ControlChange> changes = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(
                "SELECT id, changed_at, actor, action, target, detail FROM " + table + " ORDER BY id DESC LIMIT ?")) {
            s.setInt(1, limit);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    changes.add(new ControlChange(
                            r.getLong("id"),
                            dialect.readInstant(r, "changed_at"),
                            r.getString("actor"),
                            r.getString("action"),
                            r.getString("target"),
                            r.getString("detail")));
                }
            }
        }
        return changes;
    }
}
