-- Attempts ended per node and minute without the attempt history; see the PostgreSQL migration.
CREATE TABLE ${prefix}node_throughput (
    node_id    VARCHAR(200)  NOT NULL,
    minute_at  BIGINT        NOT NULL,
    succeeded  BIGINT        NOT NULL DEFAULT 0,
    failed     BIGINT        NOT NULL DEFAULT 0,
    retried    BIGINT        NOT NULL DEFAULT 0,
    PRIMARY KEY (node_id, minute_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE INDEX ${prefix}node_throughput_minute_idx ON ${prefix}node_throughput (minute_at);
