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
