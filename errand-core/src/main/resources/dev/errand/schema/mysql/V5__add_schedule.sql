-- Recurring schedules. One row per schedule; the node that fires a due slot locks the row (FOR UPDATE SKIP
-- LOCKED), inserts the slot's task and moves next_run_at on in the same transaction, so each slot fires once
-- across the cluster. misfire is 'skip', 'run_once' or 'run_all'. Times are UTC.
CREATE TABLE ${prefix}schedule (
    name           VARCHAR(100)  NOT NULL PRIMARY KEY,
    kind           VARCHAR(200)  NOT NULL,
    queue          VARCHAR(100)  NOT NULL,
    payload        LONGTEXT,
    cron           VARCHAR(200),
    interval_ms    BIGINT,
    time_zone      VARCHAR(100)  NOT NULL,
    misfire        VARCHAR(16)   NOT NULL,
    misfire_limit  INTEGER       NOT NULL,
    paused         BOOLEAN       NOT NULL DEFAULT FALSE,
    next_run_at    DATETIME(6)   NOT NULL,
    last_run_at    DATETIME(6),
    updated_at     DATETIME(6)   NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
    INDEX ${prefix}schedule_due_idx (next_run_at)
);
