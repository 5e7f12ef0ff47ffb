-- Workflows and batches; see the PostgreSQL migration for what each column and table means.
ALTER TABLE ${prefix}task ADD COLUMN predecessor_id BIGINT;
ALTER TABLE ${prefix}task ADD COLUMN batch_id BIGINT;
ALTER TABLE ${prefix}task ADD COLUMN has_dependents BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE ${prefix}task ADD COLUMN dependency_policy VARCHAR(8);

CREATE INDEX ${prefix}task_predecessor_idx ON ${prefix}task (predecessor_id);
CREATE INDEX ${prefix}task_batch_idx ON ${prefix}task (batch_id, state);

CREATE TABLE ${prefix}batch (
    id            BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    total         BIGINT       NOT NULL,
    created_at    DATETIME(6)  NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
    cancelled_at  DATETIME(6)
) ENGINE = InnoDB;

CREATE TABLE ${prefix}batch_counter (
    batch_id   BIGINT  NOT NULL,
    stripe     INT     NOT NULL,
    succeeded  BIGINT  NOT NULL DEFAULT 0,
    failed     BIGINT  NOT NULL DEFAULT 0,
    cancelled  BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (batch_id, stripe)
) ENGINE = InnoDB;

CREATE TABLE ${prefix}batch_callback (
    batch_id      BIGINT        NOT NULL,
    on_event      VARCHAR(16)   NOT NULL,
    kind          VARCHAR(200)  NOT NULL,
    queue         VARCHAR(100)  NOT NULL,
    payload       LONGTEXT,
    priority      SMALLINT      NOT NULL,
    max_attempts  INT           NOT NULL,
    PRIMARY KEY (batch_id, on_event)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE ${prefix}batch_fired (
    batch_id  BIGINT       NOT NULL,
    on_event  VARCHAR(16)  NOT NULL,
    task_id   BIGINT       NOT NULL,
    fired_at  DATETIME(6)  NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
    PRIMARY KEY (batch_id, on_event)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
