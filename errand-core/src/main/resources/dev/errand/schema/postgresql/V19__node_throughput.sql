-- Attempts ended per node and minute, counted without the attempt history: each processing node adds its
-- in-memory counters (succeeded, failed for good, retried) to its row of the database's current minute at each
-- heartbeat interval, one statement per interval and none per task. minute_at is whole minutes since the epoch
-- on the database clock. The console's overview sums the last hour over every node when the history is off.
-- Rows older than two hours are deleted by the nodes as they write.
CREATE TABLE ${prefix}node_throughput (
    node_id    VARCHAR(200)  NOT NULL,
    minute_at  BIGINT        NOT NULL,
    succeeded  BIGINT        NOT NULL DEFAULT 0,
    failed     BIGINT        NOT NULL DEFAULT 0,
    retried    BIGINT        NOT NULL DEFAULT 0,
    PRIMARY KEY (node_id, minute_at)
);

CREATE INDEX ${prefix}node_throughput_minute_idx ON ${prefix}node_throughput (minute_at);
