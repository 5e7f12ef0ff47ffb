-- Process creation on the cluster; see the PostgreSQL migration for what each column and table means.
-- The CHECK uses REGEXP_LIKE rather than IN: H2 2.4.240 binds an IN check to the session that created it (migration 3).
ALTER TABLE ${prefix}process DROP CONSTRAINT ${prefix}process_state_check;
ALTER TABLE ${prefix}process ADD CONSTRAINT ${prefix}process_state_check
    CHECK (REGEXP_LIKE(state, '^(initializing|running|succeeded|failed|cancelled)$'));

ALTER TABLE ${prefix}process ADD COLUMN rows_read BIGINT DEFAULT 0 NOT NULL;

CREATE TABLE ${prefix}process_creation (
    process_id   VARCHAR(100)                 NOT NULL PRIMARY KEY,
    query        CHARACTER LARGE OBJECT       NOT NULL,
    parameters   CHARACTER LARGE OBJECT       NOT NULL,
    page_by      VARCHAR(1000),
    page_rows    INTEGER                      NOT NULL,
    batch_size   INTEGER                      NOT NULL,
    last_key     CHARACTER LARGE OBJECT
);
