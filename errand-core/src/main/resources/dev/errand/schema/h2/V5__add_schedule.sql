-- Recurring schedules. One row per schedule; the node that fires a due slot locks the row (FOR UPDATE SKIP
-- LOCKED), inserts the slot's task and moves next_run_at on in the same transaction, so each slot fires once
-- across the cluster. misfire is 'skip', 'run_once' or 'run_all' (no CHECK: see migration 3).
CREATE TABLE ${prefix}schedule (
    name           VARCHAR(100)                NOT NULL PRIMARY KEY,
    kind           VARCHAR(200)                NOT NULL,
    queue          VARCHAR(100)                NOT NULL,
    payload        CHARACTER LARGE OBJECT,
    cron           VARCHAR(200),
    interval_ms    BIGINT,
    time_zone      VARCHAR(100)                NOT NULL,
    misfire        VARCHAR(16)                 NOT NULL,
    misfire_limit  INTEGER                     NOT NULL,
    paused         BOOLEAN                     NOT NULL DEFAULT FALSE,
    next_run_at    TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    last_run_at    TIMESTAMP(6) WITH TIME ZONE,
    updated_at     TIMESTAMP(6) WITH TIME ZONE NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE INDEX ${prefix}schedule_due_idx ON ${prefix}schedule (next_run_at);
