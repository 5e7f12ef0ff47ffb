package dev.errand.spi;

/**
 * What a claim strategy needs to know to write its SQL: the task table and how the database reads its
 * own clock. Every time comparison must use {@link #databaseTimePlusMicros()}, never the JVM's clock.
 */
public interface ClaimEnvironment {

    /** The task table's name, such as {@code errand_task}. */
    String taskTable();

    /** The dialect's name: {@code postgresql}, {@code mariadb} or {@code h2}. */
    String dialectName();

    /**
     * An SQL expression for the database's current time plus a bound number of microseconds (one
     * {@code ?}, bound as a {@code long}). Bind {@link ClaimRequest#clockOffsetMicros()} for "now".
     */
    String databaseTimePlusMicros();
}
