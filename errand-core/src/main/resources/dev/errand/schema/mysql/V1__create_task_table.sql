-- Errand task table, MariaDB 10.6+ and MySQL 8.0.1+. ${prefix} is the configured table prefix.
-- Times are DATETIME(6) holding UTC (never TIMESTAMP, which converts and may update itself).
-- There are no partial indexes: state leads each index, and the unique key is unique among active
-- tasks through a stored generated column that is NULL once the task is finished.
-- utf8mb4_bin: kinds, queues and unique keys compare exactly, as on the other databases.
CREATE TABLE ${prefix}task (
    id                BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    kind              VARCHAR(200) NOT NULL,
    queue             VARCHAR(100) NOT NULL DEFAULT 'default',
    payload           LONGTEXT,
    priority          SMALLINT     NOT NULL DEFAULT 5,
    state             VARCHAR(16)  NOT NULL DEFAULT 'pending',
    run_at            DATETIME(6)  NOT NULL,
    attempt           INT          NOT NULL DEFAULT 0,
    max_attempts      INT          NOT NULL,
    created_at        DATETIME(6)  NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
    started_at        DATETIME(6),
    finished_at       DATETIME(6),
    lease_owner       VARCHAR(200),
    lease_token       BIGINT,
    lease_expires_at  DATETIME(6),
    last_error        LONGTEXT,
    errors            LONGTEXT,
    unique_key        VARCHAR(200),
    node_id           VARCHAR(200),
    node_group        VARCHAR(200),
    expires_at        DATETIME(6),
    active_unique_key VARCHAR(200) GENERATED ALWAYS AS
                      (CASE WHEN state IN ('pending', 'waiting', 'running') THEN unique_key END) STORED,
    CONSTRAINT ${prefix}task_priority_check CHECK (priority BETWEEN 1 AND 10),
    CONSTRAINT ${prefix}task_state_check
        CHECK (state IN ('pending', 'waiting', 'running', 'succeeded', 'failed', 'cancelled')),
    CONSTRAINT ${prefix}task_attempts_check CHECK (max_attempts >= 1)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE INDEX ${prefix}task_claim_idx ON ${prefix}task (state, queue, priority, run_at);
CREATE INDEX ${prefix}task_rescue_idx ON ${prefix}task (state, lease_expires_at);
CREATE UNIQUE INDEX ${prefix}task_unique_key_idx ON ${prefix}task (active_unique_key);
CREATE INDEX ${prefix}task_finished_idx ON ${prefix}task (state, finished_at);
