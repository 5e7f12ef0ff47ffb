-- Errand scripting: stored scripts, MariaDB 10.6+ and MySQL 8. ${prefix} is Errand's table prefix.
-- One row per version; a version's code never changes. Times are DATETIME(6) holding UTC, as in Errand's own
-- tables; created_at is the database clock, as the task table's created_at. utf8mb4_bin: names compare exactly.
CREATE TABLE ${prefix}script (
    name         VARCHAR(200) NOT NULL,
    version      INT          NOT NULL,
    language     VARCHAR(50)  NOT NULL,
    source       LONGTEXT     NOT NULL,
    created_at   DATETIME(6)  NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
    created_by   VARCHAR(200) NOT NULL,
    disabled_at  DATETIME(6),
    disabled_by  VARCHAR(200),
    PRIMARY KEY (name, version),
    CONSTRAINT ${prefix}script_version_check CHECK (version >= 1)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
