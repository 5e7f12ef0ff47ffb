-- Flow control, continued (issue 31): rate limits per limit key ("10 starts a minute per tenant") and per queue.
-- See docs/FLOW-CONTROL.md. Depends on V17 and V22.

-- The per-key rate limit the nodes' definitions declare, and the run-time override, which wins while set.
ALTER TABLE ${prefix}flow_limit ADD COLUMN key_rate_limit INTEGER;
ALTER TABLE ${prefix}flow_limit ADD COLUMN key_rate_period_ms BIGINT;
ALTER TABLE ${prefix}flow_limit ADD COLUMN override_key_rate_limit INTEGER;
ALTER TABLE ${prefix}flow_limit ADD COLUMN override_key_rate_period_ms BIGINT;
ALTER TABLE ${prefix}flow_limit ADD CONSTRAINT ${prefix}flow_limit_key_rate_check
    CHECK (key_rate_limit BETWEEN 1 AND 10000 AND override_key_rate_limit BETWEEN 1 AND 10000);
ALTER TABLE ${prefix}flow_limit ADD CONSTRAINT ${prefix}flow_limit_key_period_check
    CHECK (key_rate_period_ms BETWEEN 1 AND 86400000 AND override_key_rate_period_ms BETWEEN 1 AND 86400000);

-- N rate slots per key of a kind with a per-key rate limit, created when a claim first meets the key, used like
-- flow_rate_slot: a start may be made on a slot whose last start is at least one period old (database clock).
CREATE TABLE ${prefix}flow_key_rate_slot (
    kind          VARCHAR(200) NOT NULL,
    limit_key     VARCHAR(200) NOT NULL,
    slot_no       INTEGER      NOT NULL,
    last_start_at TIMESTAMP(6) WITH TIME ZONE,
    PRIMARY KEY (kind, limit_key, slot_no)
);

-- A queue's rate limit: declared by the nodes' settings, and the run-time override, which wins while set.
ALTER TABLE ${prefix}flow_queue_limit ADD COLUMN declared_rate_limit INTEGER;
ALTER TABLE ${prefix}flow_queue_limit ADD COLUMN declared_rate_period_ms BIGINT;
ALTER TABLE ${prefix}flow_queue_limit ADD COLUMN override_rate_limit INTEGER;
ALTER TABLE ${prefix}flow_queue_limit ADD COLUMN override_rate_period_ms BIGINT;
ALTER TABLE ${prefix}flow_queue_limit ADD CONSTRAINT ${prefix}flow_queue_limit_rate_check
    CHECK (declared_rate_limit BETWEEN 1 AND 10000 AND override_rate_limit BETWEEN 1 AND 10000);
ALTER TABLE ${prefix}flow_queue_limit ADD CONSTRAINT ${prefix}flow_queue_limit_period_check
    CHECK (declared_rate_period_ms BETWEEN 1 AND 86400000 AND override_rate_period_ms BETWEEN 1 AND 86400000);

-- N rate slots per rate-limited queue, used like flow_rate_slot.
CREATE TABLE ${prefix}flow_queue_rate_slot (
    queue         VARCHAR(100) NOT NULL,
    slot_no       INTEGER      NOT NULL,
    last_start_at TIMESTAMP(6) WITH TIME ZONE,
    PRIMARY KEY (queue, slot_no)
);
