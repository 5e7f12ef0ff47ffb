-- A request to stop a running task, apart from the task row: a transactional task's row is locked by its
-- handler's transaction, and an operator's request must not wait for it. The node running the task reads
-- its requests with every heartbeat; a request is deleted once honoured or once its task is over.
CREATE TABLE ${prefix}cancel_request (
    task_id       BIGINT      NOT NULL PRIMARY KEY,
    requested_at  DATETIME(6) NOT NULL DEFAULT (UTC_TIMESTAMP(6))
);
