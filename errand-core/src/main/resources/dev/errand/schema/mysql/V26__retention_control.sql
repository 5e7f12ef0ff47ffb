-- Retentions changed at run time for the whole cluster; see the PostgreSQL migration.
CREATE TABLE ${prefix}retention_control (
    name          VARCHAR(50)  NOT NULL PRIMARY KEY,
    retention_ms  BIGINT       NOT NULL,
    updated_at    DATETIME(6)  NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
