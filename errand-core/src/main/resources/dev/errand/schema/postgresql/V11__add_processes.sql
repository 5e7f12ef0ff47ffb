-- Distributed processes (docs/PROCESSES.md): a job split into batches that run in turns on the cluster. Each turn's
-- batches are Errand tasks in one Errand batch (errand_batch) whose COMPLETE callback analyses the turn. Times are on
-- the database clock.

-- One row per process. state is 'running', 'succeeded', 'failed' or 'cancelled'; turn is the current turn (from 1);
-- batch_id the Errand batch of the current turn; batches how many batches the process created (the next batch number);
-- retries how often a failed batch is tried again in a later turn before the whole process fails; error why it failed.
CREATE TABLE ${prefix}process (
    id           VARCHAR(100)  NOT NULL PRIMARY KEY,
    name         VARCHAR(100)  NOT NULL,
    state        VARCHAR(16)   NOT NULL,
    turn         INTEGER       NOT NULL,
    batch_id     BIGINT,
    queue        VARCHAR(100)  NOT NULL,
    node_group   VARCHAR(200),
    retries      INTEGER       NOT NULL,
    batches      INTEGER       NOT NULL DEFAULT 0,
    error        TEXT,
    created_at   TIMESTAMPTZ   NOT NULL DEFAULT now(),
    finished_at  TIMESTAMPTZ,
    CONSTRAINT ${prefix}process_state_check CHECK (state IN ('running', 'succeeded', 'failed', 'cancelled'))
);
CREATE INDEX ${prefix}process_state_idx ON ${prefix}process (state, created_at);

-- One row per turn of a process: its Errand batch, how many batches it runs, and, once analysed, how many succeeded
-- and failed. The primary key makes a turn start once; analysed_at is set once, by the turn's analysis.
CREATE TABLE ${prefix}process_turn (
    process_id   VARCHAR(100)  NOT NULL,
    turn         INTEGER       NOT NULL,
    batch_id     BIGINT,
    batches      INTEGER       NOT NULL DEFAULT 0,
    succeeded    INTEGER,
    failed       INTEGER,
    started_at   TIMESTAMPTZ   NOT NULL DEFAULT now(),
    analysed_at  TIMESTAMPTZ,
    PRIMARY KEY (process_id, turn)
);

-- One row per batch of a turn. batch_no numbers a batch within its process and stays the same when the batch is
-- tried again in a later turn; tries counts its runs (1 the first time). state is 'pending', 'succeeded' or 'failed';
-- context the batch's items as a JSON array; task_id the task that runs it; node_id the node that ran it; error why it
-- failed.
CREATE TABLE ${prefix}process_batch (
    process_id   VARCHAR(100)  NOT NULL,
    turn         INTEGER       NOT NULL,
    batch_no     INTEGER       NOT NULL,
    tries        INTEGER       NOT NULL,
    state        VARCHAR(16)   NOT NULL,
    context      JSONB         NOT NULL,
    task_id      BIGINT,
    node_id      VARCHAR(200),
    error        TEXT,
    finished_at  TIMESTAMPTZ,
    PRIMARY KEY (process_id, turn, batch_no),
    CONSTRAINT ${prefix}process_batch_state_check CHECK (state IN ('pending', 'succeeded', 'failed'))
);
