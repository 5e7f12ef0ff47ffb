-- Retentions changed at run time for the whole cluster (ClusterAdmin.changeRetention): one row per retention
-- ('failed-tasks', 'cancelled-tasks', 'attempt-history', 'batches', 'premature-events',
-- 'stopped-nodes'), read by the leader at each
-- prune over the value the nodes were built with. Deleting a row (resetRetention) goes back to that value.
CREATE TABLE ${prefix}retention_control (
    name          VARCHAR(50)  NOT NULL PRIMARY KEY,
    retention_ms  BIGINT       NOT NULL,
    updated_at    TIMESTAMPTZ  NOT NULL
);
