-- Progress of running tasks (TaskContext.progress; README.md, "Reporting progress") and results of a process's batches
-- (docs/PROCESSES.md). Times are on the database clock, in UTC.

-- One row per running task that reported progress: written by the node that runs the attempt, in a
-- transaction of its own (never the task's: a transactional task's row is locked by its run), and deleted
-- in the transaction that ends the attempt. No foreign key to the task row on purpose: InnoDB's key check
-- takes a shared lock on the task row and would wait for the transactional run that holds it. attempt is
-- the attempt that wrote it; a row whose attempt is not the task's running one is stale and is not shown.
CREATE TABLE ${prefix}task_progress (
    task_id     BIGINT        NOT NULL PRIMARY KEY,
    attempt     INTEGER       NOT NULL,
    done        BIGINT        NOT NULL,
    total       BIGINT        NOT NULL,
    message     VARCHAR(500),
    updated_at  DATETIME(6)   NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- The small JSON result a batch handler returned (at most 16 KB), handed to the analysis of its turn.
ALTER TABLE ${prefix}process_batch ADD COLUMN result LONGTEXT;
