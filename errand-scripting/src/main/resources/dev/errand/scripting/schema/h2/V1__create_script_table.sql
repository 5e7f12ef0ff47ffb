-- Errand scripting: stored scripts, H2 2.x. ${prefix} is Errand's table prefix (default errand_).
-- One row per version; a version's code never changes. created_at is the database clock, as the task table's.
-- No string comparison in a constraint: H2 2.4.240 binds those to the session that created them.
CREATE TABLE ${prefix}script (
    name         VARCHAR(200)                NOT NULL,
    version      INTEGER                     NOT NULL CHECK (version >= 1),
    language     VARCHAR(50)                 NOT NULL,
    source       CHARACTER LARGE OBJECT      NOT NULL,
    created_at   TIMESTAMP(6) WITH TIME ZONE NOT NULL DEFAULT CURRENT_TIMESTAMP,
    created_by   VARCHAR(200)                NOT NULL,
    disabled_at  TIMESTAMP(6) WITH TIME ZONE,
    disabled_by  VARCHAR(200),
    PRIMARY KEY (name, version)
);
