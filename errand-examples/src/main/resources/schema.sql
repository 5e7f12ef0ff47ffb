-- The demo's business table: one row per SMS. Portable to H2, PostgreSQL and MariaDB.
CREATE TABLE IF NOT EXISTS sms_message (
    id         VARCHAR(36)   NOT NULL PRIMARY KEY,
    batch      VARCHAR(36)   NOT NULL,
    recipient  VARCHAR(32)   NOT NULL,
    body       VARCHAR(500)  NOT NULL,
    status     VARCHAR(16)   NOT NULL,
    attempts   INTEGER       NOT NULL,
    last_error VARCHAR(2000)
);

-- Delivery receipts: one row per sent SMS once the gateway reported its delivery (DELIVERED) or the report
-- did not come in time (UNCONFIRMED).
CREATE TABLE IF NOT EXISTS sms_receipt (
    message_id VARCHAR(36)   NOT NULL PRIMARY KEY,
    outcome    VARCHAR(16)   NOT NULL,
    detail     VARCHAR(500)
);
