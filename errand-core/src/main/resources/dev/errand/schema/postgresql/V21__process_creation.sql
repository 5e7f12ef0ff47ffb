-- Process creation on the cluster (docs/PROCESSES.md#creation): a process started from a query without an inline row
-- mapper is 'initializing' while a task of the process reads its query, one page per transaction, and writes the
-- batches of its first turn. This migration does not depend on any other after V19.

ALTER TABLE ${prefix}process DROP CONSTRAINT ${prefix}process_state_check;
ALTER TABLE ${prefix}process ADD CONSTRAINT ${prefix}process_state_check
    CHECK (state IN ('initializing', 'running', 'succeeded', 'failed', 'cancelled'));

-- How many rows of its input query the process has read so far (0 for a collection).
ALTER TABLE ${prefix}process ADD COLUMN rows_read BIGINT NOT NULL DEFAULT 0;

-- One row per process whose creation runs on the cluster, deleted when the creation ends. query is the SQL text;
-- parameters its parameters as a JSON array of [type, value] pairs; page_by the pageBy columns, comma-separated, or
-- NULL for LIMIT/OFFSET paging; page_rows the rows read per page; batch_size the items per batch; last_key the key
-- of the last row read (a JSON array like parameters), NULL before the first page. Each page's batches, last_key and
-- the process's rows_read commit together, so a creation that dies resumes after the last page written.
CREATE TABLE ${prefix}process_creation (
    process_id   VARCHAR(100)  NOT NULL PRIMARY KEY,
    query        TEXT          NOT NULL,
    parameters   JSONB         NOT NULL,
    page_by      VARCHAR(1000),
    page_rows    INTEGER       NOT NULL,
    batch_size   INTEGER       NOT NULL,
    last_key     JSONB
);
