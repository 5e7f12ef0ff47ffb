-- Attempt history: one row per attempt that ended, written in the transaction that records its outcome
-- (for non-transactional successes, in the completer's batch), so it costs no commit of its own. It is not
-- the hot table: claims never read it, and the pruner deletes old rows in small batches.
CREATE TABLE ${prefix}task_attempt (
    id             BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
    task_id        BIGINT        NOT NULL,
    kind           VARCHAR(200)  NOT NULL,
    queue          VARCHAR(100)  NOT NULL,
    attempt        INT           NOT NULL,
    node           VARCHAR(200),
    started_at     DATETIME(6),
    finished_at    DATETIME(6)   NOT NULL,
    duration_ms    BIGINT,
    outcome        VARCHAR(16)   NOT NULL,
    error_type     VARCHAR(500),
    error_message  LONGTEXT,
    stack_trace    LONGTEXT,
    logs           LONGTEXT
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE INDEX ${prefix}task_attempt_task_idx ON ${prefix}task_attempt (task_id, attempt);
CREATE INDEX ${prefix}task_attempt_finished_idx ON ${prefix}task_attempt (finished_at);
CREATE INDEX ${prefix}task_attempt_kind_idx ON ${prefix}task_attempt (kind, finished_at);
