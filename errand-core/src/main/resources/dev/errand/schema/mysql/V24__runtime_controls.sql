-- Run-time controls of the cluster, beside the queue controls of V9.
--
-- Who changed what through the cluster-wide controls (ClusterAdmin): one row per change, written in the
-- change's own transaction, with the database's time (UTC) and the actor that ClusterAdmin.as(...) named (the
-- console passes its signed-in user; plain API calls record "node:<id>"). Rows are kept: operators change
-- controls rarely; delete old ones with SQL when they are no longer wanted (docs/SCHEMA.md).
CREATE TABLE ${prefix}control_change (
    id          BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
    changed_at  DATETIME(6)   NOT NULL,
    actor       VARCHAR(250)  NOT NULL,
    action      VARCHAR(50)   NOT NULL,
    target      VARCHAR(210)  NOT NULL,
    detail      VARCHAR(1000)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE INDEX ${prefix}control_change_at_idx ON ${prefix}control_change (changed_at);

-- Cluster-wide run-time overrides of a kind's settings (ClusterAdmin.changeKind); NULL keeps the kind's own.
-- retry_policy is the stored form of a built-in policy: 'fixed PT30S', 'delays PT10S,PT1M' or
-- 'exponential PT1S PT1H 2.0 0.2' (initial, cap, factor, jitter).
CREATE TABLE ${prefix}kind_control (
    kind                 VARCHAR(200)  NOT NULL PRIMARY KEY,
    max_attempts         INTEGER,
    retry_policy         VARCHAR(1000),
    execution_timeout_ms BIGINT,
    updated_at           DATETIME(6)   NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
