package dev.errand.bench;

/**
 * The pieces of SQL that differ between the databases the benchmarks run on: a series of numbers {@code 1..n} as
 * a row source for a set-based fill, its column, the database's time now and moved by seconds or microseconds,
 * the current schema, and the statistics statement.
 */
public enum FillSql {
    /** {@code generate_series}. */
    POSTGRES,
    /** The Sequence engine's {@code seq_1_to_N}. */
    MARIADB,
    /** {@code SYSTEM_RANGE}. */
    H2;

    /** The kind of database a JDBC URL names. */
    public static FillSql of(String url) {
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
    public String series(long n) {
        return switch (this) {
            case POSTGRES -> " FROM generate_series(1, " + n + ") AS g";
            case MARIADB -> " FROM seq_1_to_" + n;
            case H2 -> " FROM SYSTEM_RANGE(1, " + n + ")";
        };
    }

    /** The series' column. */
    public String i() {
        return switch (this) {
            case POSTGRES -> "g";
            // The Sequence engine's numbers are unsigned: signed, so that arithmetic may go below zero.
            case MARIADB -> "CAST(seq AS SIGNED)";
            case H2 -> "X";
        };
    }

    /** The database's time now plus {@code secondsExpression} seconds (an SQL expression, may be negative). */
    public String nowPlusSeconds(String secondsExpression) {
        return switch (this) {
            case POSTGRES -> "statement_timestamp() + (" + secondsExpression + ") * INTERVAL '1 second'";
            case MARIADB -> "TIMESTAMPADD(SECOND, " + secondsExpression + ", UTC_TIMESTAMP(6))";
            case H2 -> "DATEADD(SECOND, " + secondsExpression + ", CURRENT_TIMESTAMP)";
        };
    }

    /**
     * The database's time now, as Errand stores and compares its times there: PostgreSQL's statement time, UTC on
     * MariaDB (whose {@code DATETIME} columns hold UTC), H2's {@code CURRENT_TIMESTAMP} (with time zone, fixed for
     * a transaction).
     */
    public String now() {
        return switch (this) {
            case POSTGRES -> "statement_timestamp()";
            case MARIADB -> "UTC_TIMESTAMP(6)";
            case H2 -> "CURRENT_TIMESTAMP";
        };
    }

    /** The database's time now plus {@code microsExpression} microseconds (an SQL expression, may be negative). */
    public String nowPlusMicros(String microsExpression) {
        return switch (this) {
            case POSTGRES -> "statement_timestamp() + (" + microsExpression + ") * INTERVAL '1 microsecond'";
            case MARIADB -> "TIMESTAMPADD(MICROSECOND, " + microsExpression + ", UTC_TIMESTAMP(6))";
            case H2 -> "DATEADD(MICROSECOND, " + microsExpression + ", CURRENT_TIMESTAMP)";
        };
    }

    /** The name of the schema that unqualified table names are in (on MariaDB, the current database). */
    public String currentSchema() {
        return switch (this) {
            case POSTGRES -> "current_schema()";
            case MARIADB -> "DATABASE()";
            case H2 -> "CURRENT_SCHEMA";
        };
    }

    /** Refreshes the planner's statistics of a table; on PostgreSQL also the visibility map, as autovacuum would. */
    public String analyze(String table) {
        return switch (this) {
            case POSTGRES -> "VACUUM ANALYZE " + table;
            case MARIADB -> "ANALYZE TABLE " + table;
            case H2 -> "ANALYZE TABLE " + table;
        };
    }
}
