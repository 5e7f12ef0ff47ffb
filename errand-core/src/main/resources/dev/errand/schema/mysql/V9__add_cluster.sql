-- Cluster: the node registry, the leader lease, commands to nodes and cluster-wide queue controls.
-- Times are DATETIME(6) holding UTC on the database clock. See docs/CLUSTER.md and docs/SCHEMA.md.

-- One row per node that ever started; state is 'running', 'stopped' (graceful stop) or 'dead' (its
-- heartbeat was older than the dead-node timeout when the leader swept). node_groups is a comma-separated
-- list of the groups the node serves, with a comma at each end (",a,b,") so that SQL can match one group.
CREATE TABLE ${prefix}node (
    node_id        VARCHAR(200)  NOT NULL PRIMARY KEY,
    node_groups    VARCHAR(2000) NOT NULL DEFAULT ',',
    processing     BOOLEAN       NOT NULL,
    exclusive_mode BOOLEAN       NOT NULL,
    state          VARCHAR(16)   NOT NULL,
    started_at     DATETIME(6)   NOT NULL,
    heartbeat_at   DATETIME(6)   NOT NULL,
    stopped_at     DATETIME(6),
    host           VARCHAR(255),
    pid            BIGINT,
    version        VARCHAR(50),
    CONSTRAINT ${prefix}node_state_check CHECK (state IN ('running', 'stopped', 'dead')),
    INDEX ${prefix}node_heartbeat_idx (state, heartbeat_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Leases for cluster-wide chores; one row per lease name ('maintenance'), seeded here so that taking the
-- lease is always an UPDATE.
CREATE TABLE ${prefix}leader (
    name        VARCHAR(100) NOT NULL PRIMARY KEY,
    node_id     VARCHAR(200) NOT NULL,
    acquired_at DATETIME(6)  NOT NULL,
    expires_at  DATETIME(6)  NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

INSERT INTO ${prefix}leader (name, node_id, acquired_at, expires_at)
VALUES ('maintenance', '', '1970-01-01 00:00:00', '1970-01-01 00:00:00');

-- Commands to other nodes: 'repoll', 'stop', 'start' or 'reload' (queue controls changed). A row targets one
-- node, one group, or every node (both NULL). Nodes read the rows after the last id they saw.
CREATE TABLE ${prefix}node_command (
    id           BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    command      VARCHAR(16)  NOT NULL,
    target_node  VARCHAR(200),
    target_group VARCHAR(200),
    created_at   DATETIME(6)  NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
    CONSTRAINT ${prefix}node_command_check CHECK (command IN ('repoll', 'stop', 'start', 'reload'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Cluster-wide queue controls: paused, and run-time overrides of the node settings (NULL keeps each node's own).
CREATE TABLE ${prefix}queue_control (
    queue            VARCHAR(100) NOT NULL PRIMARY KEY,
    paused           BOOLEAN      NOT NULL DEFAULT FALSE,
    concurrency      INT,
    poll_interval_ms BIGINT,
    claim_batch_size INT,
    updated_at       DATETIME(6)  NOT NULL DEFAULT (UTC_TIMESTAMP(6))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
