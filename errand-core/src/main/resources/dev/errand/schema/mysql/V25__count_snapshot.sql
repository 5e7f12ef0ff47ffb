-- The task counts stored for the whole cluster; see the PostgreSQL migration.
CREATE TABLE ${prefix}count_snapshot (
    name            VARCHAR(100)  NOT NULL PRIMARY KEY,
    counted_at      DATETIME(6),
    counting_since  DATETIME(6),
    body            MEDIUMTEXT
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
