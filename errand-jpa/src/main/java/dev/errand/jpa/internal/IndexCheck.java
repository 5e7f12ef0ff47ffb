package dev.errand.jpa.internal;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Whether a queue's table has the index that claims need: one whose first two columns are the state's
 * {@code status} and {@code next_attempt_at}. Without it every claim reads the whole table.
 */
public final class IndexCheck {

    /** What the check found. */
    public enum Result {
        /** The index is there. */
        PRESENT,
        /** The table is there, the index is not. */
        MISSING,
        /** The table is not there (yet). */
        NO_TABLE
    }

    private IndexCheck() {}

    /** The statement that creates the recommended index. */
    public static String recommendedIndex(QueueTable table) {
        String base = bare(table.table()) + "_" + bare(table.columns().status()) + "_due";
        String name = base.length() > 60 ? base.substring(0, 60) : base;
        return "CREATE INDEX " + name + " ON " + table.table() + " ("
                + table.columns().status() + ", " + table.columns().nextAttemptAt() + ")";
    }

    /** Looks for the index in the connection's catalog and schema. */
    public static Result check(Connection connection, QueueTable table) throws SQLException {
        DatabaseMetaData metaData = connection.getMetaData();
        String status = bare(table.columns().status());
        String next = bare(table.columns().nextAttemptAt());
        boolean tableFound = false;
        for (String name : spellings(bare(table.table()))) {
            Map<String, List<String>> indexes = new TreeMap<>();
            try (ResultSet rows =
                    metaData.getIndexInfo(connection.getCatalog(), schema(connection), name, false, true)) {
                while (rows.next()) {
                    tableFound = true;
                    String index = rows.getString("INDEX_NAME");
                    String column = rows.getString("COLUMN_NAME");
                    int position = rows.getShort("ORDINAL_POSITION");
                    if (index == null || column == null || position < 1) {
                        continue;
                    }
                    List<String> columns = indexes.computeIfAbsent(index, key -> new ArrayList<>());
                    while (columns.size() < position) {
                        columns.add("");
                    }
                    columns.set(position - 1, bare(column));
                }
            }
            for (List<String> columns : indexes.values()) {
                if (columns.size() >= 2
                        && columns.get(0).equalsIgnoreCase(status)
                        && columns.get(1).equalsIgnoreCase(next)) {
                    return Result.PRESENT;
                }
            }
            tableFound = tableFound || tableExists(metaData, connection, name);
        }
        return tableFound ? Result.MISSING : Result.NO_TABLE;
    }

    private static boolean tableExists(DatabaseMetaData metaData, Connection connection, String name)
            throws SQLException {
        try (ResultSet rows = metaData.getTables(connection.getCatalog(), schema(connection), name, null)) {
            return rows.next();
        }
    }

    private static String schema(Connection connection) {
        try {
            return connection.getSchema();
        } catch (SQLException | AbstractMethodError e) {
            return null;
        }
    }

    private static Set<String> spellings(String name) {
        Set<String> names = new LinkedHashSet<>();
        names.add(name);
        names.add(name.toLowerCase(Locale.ROOT));
        names.add(name.toUpperCase(Locale.ROOT));
        return names;
    }

    private static String bare(String identifier) {
        String name = identifier.strip();
        int dot = name.lastIndexOf('.');
        if (dot >= 0) {
            name = name.substring(dot + 1);
        }
        return name.replace("\"", "").replace("`", "");
    }
}
