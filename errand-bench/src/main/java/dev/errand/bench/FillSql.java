package dev.errand.bench;

/**
 * The pieces of a set-based fill that differ between the databases the console benchmarks fill: a series of
 * numbers {@code 1..n} as a row source, its column, the database's time now and moved by seconds, and the
 * statistics statement.
 */
enum FillSql {
    /** {@code generate_series}. */
    POSTGRES,
    /** The Sequence engine's {@code seq_1_to_N}. */
    MARIADB,
    /** {@code SYSTEM_RANGE}. */
    H2;

    /** The kind of database a JDBC URL names. */
    static FillSql of(String url) {
        if (url.startsWith("jdbc:postgresql")) {
            return POSTGRES;
        }
        if (url.startsWith("jdbc:mariadb") || url.startsWith("jdbc:mysql")) {
            return MARIADB;
        }
        if (url.startsWith("jdbc:h2")) {
            return H2;
        }
        throw new IllegalArgumentException("PostgreSQL, MariaDB or H2 only, got " + url);
    }

    /** {@code FROM} the numbers 1 to {@code n}, whose column is {@link #i()}. */
    String series(long n) {
        return switch (this) {
            case POSTGRES -> " FROM generate_series(1, " + n + ") AS g";
            case MARIADB -> " FROM seq_1_to_" + n;
            case H2 -> " FROM SYSTEM_RANGE(1, " + n + ")";
        };
    }

    /** The series' column. */
    String i() {
        return switch (this) {
            case POSTGRES -> "g";
            // The Sequence engine's numbers are unsigned: signed, so that arithmetic may go below zero.
            case MARIADB -> "CAST(seq AS SIGNED)";
            case H2 -> "X";
        };
    }

    /** The database's time now plus {@code secondsExpression} seconds (an SQL expression, may be negative). */
    String nowPlusSeconds(String secondsExpression) {
        return switch (this) {
            case POSTGRES -> "statement_timestamp() + (" + secondsExpression + ") * INTERVAL '1 second'";
            case MARIADB -> "TIMESTAMPADD(SECOND, " + secondsExpression + ", UTC_TIMESTAMP(6))";
            case H2 -> "DATEADD(SECOND, " + secondsExpression + ", CURRENT_TIMESTAMP)";
        };
    }

    /** Refreshes the planner's statistics of a table; on PostgreSQL also the visibility map, as autovacuum would. */
    String analyze(String table) {
        return switch (this) {
            case POSTGRES -> "VACUUM ANALYZE " + table;
            case MARIADB -> "ANALYZE TABLE " + table;
            case H2 -> "ANALYZE TABLE " + table;
        };
    }
}
