-- Events. A task enqueued with conditions is 'waiting' and has one row here per condition not yet fulfilled;
-- triggering an event deletes its rows and moves each waiting task whose last row went to 'pending'. Rows
-- exist only for waiting tasks: cancelling or expiring a task deletes them.
CREATE TABLE ${prefix}task_condition (
    task_id     BIGINT                       NOT NULL,
    event       VARCHAR(255)                 NOT NULL,
    expires_at  TIMESTAMP(6) WITH TIME ZONE,
    PRIMARY KEY (task_id, event)
);

CREATE INDEX ${prefix}task_condition_event_idx ON ${prefix}task_condition (event);
CREATE INDEX ${prefix}task_condition_expiry_idx ON ${prefix}task_condition (expires_at);

-- An event triggered while no waiting task had it as a condition. The next task enqueued with that condition
-- consumes it (deletes the row) instead of waiting. Triggering it again before then counts, but stores one row.
CREATE TABLE ${prefix}premature_event (
    event         VARCHAR(255)                 NOT NULL PRIMARY KEY,
    triggered_at  TIMESTAMP(6) WITH TIME ZONE  NOT NULL,
    last_at       TIMESTAMP(6) WITH TIME ZONE  NOT NULL,
    times         INTEGER                      NOT NULL
);

CREATE INDEX ${prefix}premature_event_age_idx ON ${prefix}premature_event (last_at);

-- Triggering an event and enqueueing a task that waits for it lock the same row here, chosen by a hash of the
-- event's name, so that one always sees the other's outcome: an event is never both missed by the enqueue and
-- stored as premature by the trigger. The rows are never inserted or deleted after this migration.
CREATE TABLE ${prefix}event_lock (
    stripe  INTEGER  NOT NULL PRIMARY KEY
);

INSERT INTO ${prefix}event_lock (stripe) SELECT X FROM SYSTEM_RANGE(0, 1023);

-- Expiry: tasks with a deadline by state, soonest first.
CREATE INDEX ${prefix}task_expiry_idx ON ${prefix}task (state, expires_at);
