package dev.errand.jpa.internal;

/**
 * Where one entity queue lives: the entity's table, its id and version columns, and the columns of the
 * queue state, as Hibernate maps them.
 *
 * @param entityName the entity's name, for messages
 * @param table the table
 * @param id the id column
 * @param idType the id's Java type
 * @param version the numeric version column, or {@code null} if the entity has none
 * @param columns the queue state's columns
 */
public record QueueTable(
        String entityName, String table, String id, Class<?> idType, String version, StateColumns columns) {

    /**
     * The columns of one embedded queue state.
     *
     * @param status {@code status}
     * @param nextAttemptAt {@code next_attempt_at}
     * @param attempts {@code attempts}
     * @param lastAttemptAt {@code last_attempt_at}
     * @param lastError {@code last_error}
     * @param leaseOwner {@code lease_owner}
     * @param leaseToken {@code lease_token}
     * @param leaseExpiresAt {@code lease_expires_at}
     */
    public record StateColumns(
            String status,
            String nextAttemptAt,
            String attempts,
            String lastAttemptAt,
            String lastError,
            String leaseOwner,
            String leaseToken,
            String leaseExpiresAt) {}
}
