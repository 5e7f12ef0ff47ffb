-- Flow control, continued (issue 31): run-time rate limits, and cluster-wide concurrency limits per queue.
-- See docs/FLOW-CONTROL.md. Depends on V17 only.

-- A rate limit set at run time through FlowAdmin, which wins over the declared one while set.
ALTER TABLE ${prefix}flow_limit ADD COLUMN override_rate_limit INTEGER;
ALTER TABLE ${prefix}flow_limit ADD COLUMN override_rate_period_ms BIGINT;
ALTER TABLE ${prefix}flow_limit ADD CONSTRAINT ${prefix}flow_limit_override_rate_check
    CHECK (override_rate_limit BETWEEN 1 AND 10000);
ALTER TABLE ${prefix}flow_limit ADD CONSTRAINT ${prefix}flow_limit_override_period_check
    CHECK (override_rate_period_ms BETWEEN 1 AND 86400000);

-- One row per limited queue: the limit the nodes' settings declare and the run-time override, which wins.
CREATE TABLE ${prefix}flow_queue_limit (
    queue          VARCHAR(100) NOT NULL PRIMARY KEY,
    declared_limit INTEGER CHECK (declared_limit BETWEEN 1 AND 10000),
    override_limit INTEGER CHECK (override_limit BETWEEN 1 AND 10000)
);

-- N slot rows per limited queue, held like flow_slot: while the task named is running with the token named.
CREATE TABLE ${prefix}flow_queue_slot (
    queue       VARCHAR(100) NOT NULL,
    slot_no     INTEGER      NOT NULL,
    task_id     BIGINT,
    lease_token BIGINT,
    PRIMARY KEY (queue, slot_no)
);
