-- The task counts stored for the whole cluster; see the PostgreSQL migration.
CREATE TABLE ${prefix}count_snapshot (
    name            VARCHAR(100)  NOT NULL PRIMARY KEY,
    counted_at      TIMESTAMP(6) WITH TIME ZONE,
    counting_since  TIMESTAMP(6) WITH TIME ZONE,
    body            CHARACTER LARGE OBJECT
);
