-- Errand scripting: stored scripts, PostgreSQL. ${prefix} is Errand's table prefix (default errand_).
-- One row per version; a version's code never changes. created_at is the database clock, as the task table's
-- created_at, so that a task without a version runs the newest version saved no later than the task was created.
CREATE TABLE ${prefix}script (
    name         VARCHAR(200) NOT NULL,
    version      INTEGER      NOT NULL CHECK (version >= 1),
    language     VARCHAR(50)  NOT NULL,
    source       TEXT         NOT NULL,
    created_at   TIMESTAMPTZ  NOT NULL DEFAULT CURRENT_TIMESTAMP,
    created_by   VARCHAR(200) NOT NULL,
    disabled_at  TIMESTAMPTZ,
    disabled_by  VARCHAR(200),
    PRIMARY KEY (name, version)
);
