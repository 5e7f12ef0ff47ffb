package dev.errand.scripting.internal;

import dev.errand.config.TablePrefix;
import dev.errand.scripting.ScriptVersion;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The script table's statements. Each method runs on the connection it is given, in that connection's transaction.
 */
public final class ScriptStore {

    private static final String COLUMNS =
            "s.name, s.version, s.language, s.source, s.created_at, s.created_by," + " s.disabled_at, s.disabled_by";
    private static final String HEAD_COLUMNS = "name, version, language, disabled_at, disabled_by";

    private final ScriptDialect dialect;
    private final String scripts;
    private final String tasks;

    /**
     * Creates the store.
     *
     * @param dialect the database's dialect
     * @param prefix Errand's table prefix: the script table is {@code <prefix>script}, the task table
     *     {@code <prefix>task}
     */
    public ScriptStore(ScriptDialect dialect, TablePrefix prefix) {
        this.dialect = dialect;
        this.scripts = prefix.value() + "script";
        this.tasks = prefix.taskTable();
    }

    /** A version without its source: what running it needs to know before the cache is asked. */
    public record Head(String name, int version, String language, Instant disabledAt, String disabledBy) {}

    /** The number the next version of {@code name} would get. */
    public int nextVersion(Connection c, String name) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement("SELECT COALESCE(MAX(version), 0) + 1 FROM " + scripts + " WHERE name = ?")) {
            s.setString(1, name);
            try (ResultSet row = s.executeQuery()) {
                row.next();
                return row.getInt(1);
            }
        }
    }

    /** Inserts a version; {@code created_at} is the database's. A duplicate version fails with SQL state 23xxx. */
    public void insert(Connection c, String name, int version, String language, String source, String createdBy)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "INSERT INTO " + scripts + " (name, version, language, source, created_by) VALUES (?, ?, ?, ?, ?)")) {
            s.setString(1, name);
            s.setInt(2, version);
            s.setString(3, language);
            s.setString(4, source);
            s.setString(5, createdBy);
            s.executeUpdate();
        }
    }

    /** One version with its source. */
    public Optional<ScriptVersion> find(Connection c, String name, int version) throws SQLException {
        List<ScriptVersion> found = select(c, "WHERE s.name = ? AND s.version = ?", name, version);
        return found.stream().findFirst();
    }

    /** The newest version of a script with its source. */
    public Optional<ScriptVersion> newest(Connection c, String name) throws SQLException {
        return select(
                        c,
                        "WHERE s.name = ? AND s.version = (SELECT MAX(v.version) FROM " + scripts
                                + " v WHERE v.name = ?)",
                        name,
                        name)
                .stream()
                .findFirst();
    }

    /** Every version of a script, newest first. */
    public List<ScriptVersion> versions(Connection c, String name) throws SQLException {
        return select(c, "WHERE s.name = ? ORDER BY s.version DESC", name);
    }

    /** The newest version of every script, by name. */
    public List<ScriptVersion> newest(Connection c) throws SQLException {
        return select(
                c,
                "WHERE s.version = (SELECT MAX(v.version) FROM " + scripts + " v WHERE v.name = s.name)"
                        + " ORDER BY s.name");
    }

    /** Disables the versions of a script that are not disabled yet; returns how many. */
    public int disable(Connection c, String name, String disabledBy) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE " + scripts + " SET disabled_at = " + dialect.now()
                + ", disabled_by = ? WHERE name = ? AND disabled_at IS NULL")) {
            s.setString(1, disabledBy);
            s.setString(2, name);
            return s.executeUpdate();
        }
    }

    /** The newest version of a script as the connection sees it now, without its source. */
    public Optional<Head> newestHead(Connection c, String name) throws SQLException {
        return head(
                c,
                "WHERE name = ? AND version = (SELECT MAX(v.version) FROM " + scripts + " v WHERE v.name = ?)",
                name,
                name);
    }

    /** One version of a script, without its source. */
    public Optional<Head> head(Connection c, String name, int version) throws SQLException {
        return head(c, "WHERE name = ? AND version = ?", name, version);
    }

    /**
     * The newest version of a script saved no later than task {@code taskId} was created, both times on the database
     * clock, without its source; empty if there is none or the task's row is gone.
     */
    public Optional<Head> headAsOfTask(Connection c, String name, long taskId) throws SQLException {
        return head(
                c,
                "WHERE name = ? AND version = (SELECT MAX(v.version) FROM " + scripts + " v WHERE v.name = ?"
                        + " AND v.created_at <= (SELECT t.created_at FROM " + tasks + " t WHERE t.id = ?))",
                name,
                name,
                taskId);
    }

    /** The source of one version, or null if it is gone. */
    public String source(Connection c, String name, int version) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement("SELECT source FROM " + scripts + " WHERE name = ? AND version = ?")) {
            s.setString(1, name);
            s.setInt(2, version);
            try (ResultSet row = s.executeQuery()) {
                return row.next() ? row.getString(1) : null;
            }
        }
    }

    private Optional<Head> head(Connection c, String where, Object... parameters) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT " + HEAD_COLUMNS + " FROM " + scripts + " " + where)) {
            bind(s, parameters);
            try (ResultSet row = s.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Head(
                        row.getString("name"),
                        row.getInt("version"),
                        row.getString("language"),
                        dialect.readInstant(row, "disabled_at"),
                        row.getString("disabled_by")));
            }
        }
    }

    /** Versions with their source; {@code where} follows {@code FROM <scripts> s}. */
    private List<ScriptVersion> select(Connection c, String where, Object... parameters) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT " + COLUMNS + " FROM " + scripts + " s " + where)) {
            bind(s, parameters);
            List<ScriptVersion> found = new ArrayList<>();
            try (ResultSet row = s.executeQuery()) {
                while (row.next()) {
                    found.add(new ScriptVersion(
                            row.getString("name"),
                            row.getInt("version"),
                            row.getString("language"),
                            row.getString("source"),
                            dialect.readInstant(row, "created_at"),
                            row.getString("created_by"),
                            dialect.readInstant(row, "disabled_at"),
                            row.getString("disabled_by")));
                }
            }
            return found;
        }
    }

    private static void bind(PreparedStatement s, Object... parameters) throws SQLException {
        for (int i = 0; i < parameters.length; i++) {
            if (parameters[i] instanceof Integer number) {
                s.setInt(i + 1, number);
            } else if (parameters[i] instanceof Long number) {
                s.setLong(i + 1, number);
            } else {
                s.setString(i + 1, (String) parameters[i]);
            }
        }
    }
}
