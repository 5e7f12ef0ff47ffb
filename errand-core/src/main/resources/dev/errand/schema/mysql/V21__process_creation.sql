-- Process creation on the cluster; see the PostgreSQL migration for what each column and table means.
ALTER TABLE ${prefix}process DROP CONSTRAINT ${prefix}process_state_check;
ALTER TABLE ${prefix}process ADD CONSTRAINT ${prefix}process_state_check
    CHECK (state IN ('initializing', 'running', 'succeeded', 'failed', 'cancelled'));

ALTER TABLE ${prefix}process ADD COLUMN rows_read BIGINT NOT NULL DEFAULT 0;

CREATE TABLE ${prefix}process_creation (
    process_id   VARCHAR(100)  NOT NULL PRIMARY KEY,
    query        LONGTEXT      NOT NULL,
    parameters   LONGTEXT      NOT NULL,
    page_by      VARCHAR(1000),
    page_rows    INT           NOT NULL,
    batch_size   INT           NOT NULL,
    last_key     LONGTEXT
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
