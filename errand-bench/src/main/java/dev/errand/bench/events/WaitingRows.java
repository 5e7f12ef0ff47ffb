package dev.errand.bench.events;

import dev.errand.bench.Db;

/**
 * Waiting tasks inserted straight into Errand's tables with SQL, for set-up that would take minutes
 * through the API (which stores a task's conditions one task at a time). The rows are what
 * {@code enqueue} writes for a no-op task with one condition: a {@code waiting} task row and one row in
 * {@code task_condition}.
 */
final class WaitingRows {

    private WaitingRows() {}

    /**
     * Inserts {@code count} waiting no-op tasks. Each waits for {@code event}, or, if {@code perTask}, for an
     * event of its own named {@code event-<id>}. Every row gets its own {@code run_at}, in the past, so that
     * the tasks would be due at once if they were pending.
     */
    static void insert(Db db, String prefix, int count, String event, boolean perTask) {
        String literal = "'" + event.replace("'", "''") + "'";
        String name = perTask ? literal + " || '-' || id" : literal;
        db.execute("WITH waiting AS (INSERT INTO " + prefix + "task"
                + " (kind, queue, payload, priority, state, run_at, max_attempts)"
                + " SELECT '" + EventNode.KIND + "', 'default', '{\"t\":0}'::jsonb, 5, 'waiting',"
                + " now() - g * interval '1 microsecond', 5 FROM generate_series(1, " + count + ") AS g"
                + " RETURNING id)"
                + " INSERT INTO " + prefix + "task_condition (task_id, event) SELECT id, " + name + " FROM waiting");
    }
}
