-- The task counts stored for the whole cluster (TaskAdmin.countsSnapshot): one row per snapshot name
-- ('tasks/<overdueAfter in seconds>'). body is the counts as JSON, counted_at the database's time of the count.
-- counting_since marks a count under way, so that other nodes read the stored counts instead of scanning the task
-- table at the same time; a mark older than five minutes (a node that died while counting) is taken over.
CREATE TABLE ${prefix}count_snapshot (
    name            VARCHAR(100)  NOT NULL PRIMARY KEY,
    counted_at      TIMESTAMPTZ,
    counting_since  TIMESTAMPTZ,
    body            TEXT
);
