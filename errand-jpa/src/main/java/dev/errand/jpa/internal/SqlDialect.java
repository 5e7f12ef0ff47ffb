package dev.errand.jpa.internal;

import org.hibernate.dialect.Dialect;
import org.hibernate.dialect.H2Dialect;
import org.hibernate.dialect.MySQLDialect;
import org.hibernate.dialect.PostgreSQLDialect;

/**
 * What differs between the databases for entity queues: how SQL reads the database clock, and whether a
 * claim can be one {@code UPDATE … RETURNING}. Hibernate stores an {@code Instant} as {@code timestamp with
 * time zone} on PostgreSQL and H2, and as a UTC {@code datetime(6)} on MariaDB and MySQL, which is therefore
 * compared with {@code UTC_TIMESTAMP(6)}.
 */
public enum SqlDialect {
    /** PostgreSQL 12 and later. */
    POSTGRESQL("(statement_timestamp() + CAST(:micros AS BIGINT) * INTERVAL '1 microsecond')", true),
    /** MariaDB 10.6+ and MySQL 8.0.1+, the versions with {@code SKIP LOCKED}. */
    MARIADB("TIMESTAMPADD(MICROSECOND, :micros, UTC_TIMESTAMP(6))", false),
    /** H2 2.x. */
    H2("DATEADD(MICROSECOND, CAST(:micros AS BIGINT), CURRENT_TIMESTAMP)", false);

    private final String nowPlusMicros;
    private final boolean updateReturning;

    SqlDialect(String nowPlusMicros, boolean updateReturning) {
        this.nowPlusMicros = nowPlusMicros;
        this.updateReturning = updateReturning;
    }

    /**
     * The dialect for Hibernate's.
     *
     * @throws IllegalArgumentException for a database that entity queues do not support
     */
    public static SqlDialect of(Dialect hibernate) {
        if (hibernate instanceof PostgreSQLDialect) {
            return POSTGRESQL;
        }
        if (hibernate instanceof MySQLDialect) {
            // MariaDBDialect extends MySQLDialect in Hibernate 7.
            return MARIADB;
        }
        if (hibernate instanceof H2Dialect) {
            return H2;
        }
        throw new IllegalArgumentException("Entity queues run on PostgreSQL, MariaDB, MySQL and H2; Hibernate's"
                + " dialect is " + hibernate.getClass().getName());
    }

    /**
     * The database's time plus a number of microseconds, as SQL with one named parameter whose name ends
     * with {@code micros}; {@code name} replaces it, so one statement can hold several.
     */
    public String nowPlus(String name) {
        return nowPlusMicros.replace(":micros", ":" + name);
    }

    /** Whether a claim is one {@code UPDATE … WHERE id = ANY(ARRAY(SELECT … SKIP LOCKED)) RETURNING} statement. */
    public boolean updateReturning() {
        return updateReturning;
    }
}
