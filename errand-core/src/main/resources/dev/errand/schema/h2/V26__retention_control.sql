-- Retentions changed at run time for the whole cluster; see the PostgreSQL migration.
CREATE TABLE ${prefix}retention_control (
    name          VARCHAR(50)  NOT NULL PRIMARY KEY,
    retention_ms  BIGINT       NOT NULL,
    updated_at    TIMESTAMP(6) WITH TIME ZONE  NOT NULL
);
