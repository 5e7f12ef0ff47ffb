-- Distributed processes; see the PostgreSQL migration for what each column and table means.
-- The CHECKs use REGEXP_LIKE rather than IN: H2 2.4.240 binds an IN check to the session that created it (migration 3).
CREATE TABLE ${prefix}process (
    id           VARCHAR(100)                 NOT NULL PRIMARY KEY,
    name         VARCHAR(100)                 NOT NULL,
    state        VARCHAR(16)                  NOT NULL,
    turn         INTEGER                      NOT NULL,
    batch_id     BIGINT,
    queue        VARCHAR(100)                 NOT NULL,
    node_group   VARCHAR(200),
    retries      INTEGER                      NOT NULL,
    batches      INTEGER                      DEFAULT 0 NOT NULL,
    error        VARCHAR(4000),
    created_at   TIMESTAMP(6) WITH TIME ZONE  DEFAULT CURRENT_TIMESTAMP NOT NULL,
    finished_at  TIMESTAMP(6) WITH TIME ZONE,
    CONSTRAINT ${prefix}process_state_check CHECK (REGEXP_LIKE(state, '^(running|succeeded|failed|cancelled)$'))
);
CREATE INDEX ${prefix}process_state_idx ON ${prefix}process (state, created_at);

CREATE TABLE ${prefix}process_turn (
    process_id   VARCHAR(100)                 NOT NULL,
    turn         INTEGER                      NOT NULL,
    batch_id     BIGINT,
    batches      INTEGER                      DEFAULT 0 NOT NULL,
    succeeded    INTEGER,
    failed       INTEGER,
    started_at   TIMESTAMP(6) WITH TIME ZONE  DEFAULT CURRENT_TIMESTAMP NOT NULL,
    analysed_at  TIMESTAMP(6) WITH TIME ZONE,
    PRIMARY KEY (process_id, turn)
);

CREATE TABLE ${prefix}process_batch (
    process_id   VARCHAR(100)                 NOT NULL,
    turn         INTEGER                      NOT NULL,
    batch_no     INTEGER                      NOT NULL,
    tries        INTEGER                      NOT NULL,
    state        VARCHAR(16)                  NOT NULL,
    context      CHARACTER LARGE OBJECT       NOT NULL,
    task_id      BIGINT,
    node_id      VARCHAR(200),
    error        VARCHAR(4000),
    finished_at  TIMESTAMP(6) WITH TIME ZONE,
    PRIMARY KEY (process_id, turn, batch_no),
    CONSTRAINT ${prefix}process_batch_state_check CHECK (REGEXP_LIKE(state, '^(pending|succeeded|failed)$'))
);
