-- Flow control (issue 31): cluster-wide concurrency limits per task kind. See docs/FLOW-CONTROL.md.

-- One row per limited kind. declared_limit is what the nodes' TaskDefinitions say (each node writes it at
-- start); override_limit is the run-time change made through FlowAdmin, and wins while it is set. The *_per_key
-- columns are the same for the per-key limit; rate_limit starts per rate_period_ms is a rate limit (declared only).
CREATE TABLE ${prefix}flow_limit (
    kind           VARCHAR(200) NOT NULL PRIMARY KEY,
    declared_limit INT,
    override_limit INT,
    declared_per_key INT,
    override_per_key INT,
    rate_limit     INT,
    rate_period_ms BIGINT,
    CONSTRAINT ${prefix}flow_limit_declared_check CHECK (declared_limit BETWEEN 1 AND 10000),
    CONSTRAINT ${prefix}flow_limit_override_check CHECK (override_limit BETWEEN 1 AND 10000),
    CONSTRAINT ${prefix}flow_limit_declared_key_check CHECK (declared_per_key BETWEEN 1 AND 10000),
    CONSTRAINT ${prefix}flow_limit_override_key_check CHECK (override_per_key BETWEEN 1 AND 10000),
    CONSTRAINT ${prefix}flow_limit_rate_check CHECK (rate_limit BETWEEN 1 AND 10000),
    CONSTRAINT ${prefix}flow_limit_period_check CHECK (rate_period_ms BETWEEN 1 AND 86400000)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- N slot rows per limited kind (slot_no 1..N). A claim locks free slots with FOR UPDATE SKIP LOCKED and
-- writes the id and lease token of the task it starts on each. A slot is held while that task is running
-- with that lease token: ending the task (or rescuing its lease) frees it in the same transaction, with no
-- write here. Rows above the current limit stay, unused, until the limit is raised again.
CREATE TABLE ${prefix}flow_slot (
    kind        VARCHAR(200) NOT NULL,
    slot_no     INT          NOT NULL,
    task_id     BIGINT,
    lease_token BIGINT,
    PRIMARY KEY (kind, slot_no)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Per-key limits: the flow-control key a task was enqueued with (TaskRequest.limitKey), and the slots of each
-- key of a kind with a per-key limit, created when a claim first meets the key. No partial indexes here: the
-- index holds every row, and a per-key claim reads the pending tasks of one kind, queue and key from it.
ALTER TABLE ${prefix}task ADD COLUMN limit_key VARCHAR(200);
CREATE INDEX ${prefix}task_limit_key_idx ON ${prefix}task (state, kind, queue, limit_key, priority, run_at);

CREATE TABLE ${prefix}flow_key_slot (
    kind        VARCHAR(200) NOT NULL,
    limit_key   VARCHAR(200) NOT NULL,
    slot_no     INT          NOT NULL,
    task_id     BIGINT,
    lease_token BIGINT,
    PRIMARY KEY (kind, limit_key, slot_no)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Rate limits: rate_limit slot rows per rate-limited kind. A claim may start a task on a slot whose last start
-- is at least the period ago (database clock), and writes the start on it: no window of one period holds more
-- starts than slots.
CREATE TABLE ${prefix}flow_rate_slot (
    kind          VARCHAR(200) NOT NULL,
    slot_no       INT          NOT NULL,
    last_start_at DATETIME(6),
    PRIMARY KEY (kind, slot_no)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
