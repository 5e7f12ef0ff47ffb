-- Distributed processes; see the PostgreSQL migration for what each column and table means. Times are DATETIME(6)
-- holding UTC on the database clock.
CREATE TABLE ${prefix}process (
    id           VARCHAR(100)  NOT NULL PRIMARY KEY,
    name         VARCHAR(100)  NOT NULL,
    state        VARCHAR(16)   NOT NULL,
    turn         INT           NOT NULL,
    batch_id     BIGINT,
    queue        VARCHAR(100)  NOT NULL,
    node_group   VARCHAR(200),
    retries      INT           NOT NULL,
    batches      INT           NOT NULL DEFAULT 0,
    error        TEXT,
    created_at   DATETIME(6)   NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
    finished_at  DATETIME(6),
    CONSTRAINT ${prefix}process_state_check CHECK (state IN ('running', 'succeeded', 'failed', 'cancelled')),
    INDEX ${prefix}process_state_idx (state, created_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE ${prefix}process_turn (
    process_id   VARCHAR(100)  NOT NULL,
    turn         INT           NOT NULL,
    batch_id     BIGINT,
    batches      INT           NOT NULL DEFAULT 0,
    succeeded    INT,
    failed       INT,
    started_at   DATETIME(6)   NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
    analysed_at  DATETIME(6),
    PRIMARY KEY (process_id, turn)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE ${prefix}process_batch (
    process_id   VARCHAR(100)  NOT NULL,
    turn         INT           NOT NULL,
    batch_no     INT           NOT NULL,
    tries        INT           NOT NULL,
    state        VARCHAR(16)   NOT NULL,
    context      LONGTEXT      NOT NULL,
    task_id      BIGINT,
    node_id      VARCHAR(200),
    error        TEXT,
    finished_at  DATETIME(6),
    PRIMARY KEY (process_id, turn, batch_no),
    CONSTRAINT ${prefix}process_batch_state_check CHECK (state IN ('pending', 'succeeded', 'failed'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
