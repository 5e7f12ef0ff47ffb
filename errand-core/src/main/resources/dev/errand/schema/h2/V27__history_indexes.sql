-- The history's pages now read in the order attempts were recorded (the primary key), not by finishing time;
-- see the PostgreSQL migration. H2 has neither BRIN nor partial indexes, so the time index stays (for the
-- time ranges) and the kind index follows the new order.
DROP INDEX ${prefix}task_attempt_kind_idx;
CREATE INDEX ${prefix}task_attempt_kind_idx ON ${prefix}task_attempt (kind, id);
