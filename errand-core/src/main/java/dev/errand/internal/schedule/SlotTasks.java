package dev.errand.internal.schedule;

import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.States;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;

/**
 * The task a schedule wrote for one of its slots, found by the slot's unique key. A change to a schedule
 * reaches the task written ahead of its slot through here: only while that task is still pending and its
 * slot still to come, so that a slot that has come, or a task a worker has claimed, is never taken back.
 */
public final class SlotTasks {

    private final Dialect dialect;
    private final String table;
    private final String keyCondition;

    /**
     * Creates the statements.
     *
     * @param dialect the database's dialect
     * @param table the task table's name
     */
    public SlotTasks(Dialect dialect, String table) {
        this.dialect = dialect;
        this.table = table;
        this.keyCondition = dialect.activeUniqueKeyCondition();
    }

    /** The unique key of a schedule's task for {@code slot}: one task per slot, however often it is written. */
    public static String key(String scheduleName, Instant slot) {
        return "schedule:" + scheduleName + "@" + slot.toEpochMilli();
    }

    /**
     * Deletes the task of {@code slot} if it is pending and its slot comes after {@code now}.
     *
     * @return whether it was deleted: false if there is none, or its slot has come, or it was claimed
     */
    public boolean takeBack(Connection c, String scheduleName, Instant slot, Instant now) throws SQLException {
        try (PreparedStatement delete = c.prepareStatement("DELETE FROM " + table + " WHERE " + keyCondition
                + " AND state = " + States.PENDING + " AND run_at > " + dialect.timestampParam())) {
            delete.setString(1, key(scheduleName, slot));
            delete.setObject(2, dialect.timestampValue(now));
            return delete.executeUpdate() == 1;
        }
    }

    /**
     * Gives the task of {@code slot} a new payload if it is pending and its slot comes after {@code now}.
     *
     * @return whether a task was changed
     */
    public boolean rewritePayload(Connection c, String scheduleName, Instant slot, Instant now, String payloadJson)
            throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE " + table + " SET payload = " + dialect.jsonParam()
                + " WHERE " + keyCondition + " AND state = " + States.PENDING + " AND run_at > "
                + dialect.timestampParam())) {
            update.setString(1, payloadJson);
            update.setString(2, key(scheduleName, slot));
            update.setObject(3, dialect.timestampValue(now));
            return update.executeUpdate() == 1;
        }
    }
}
