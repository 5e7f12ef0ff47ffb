-- The history's pages now read in the order attempts were recorded (the primary key), not by finishing time,
-- so the two time B-trees go: each history row paid for both, about half of what the row cost to write.
-- A BRIN index on finished_at serves the time ranges (throughput, "the last hour"): ids and finishing times
-- grow together, so block ranges stay narrow, and it costs almost nothing to keep.
-- The filter by kind keeps an index only for the attempts that did not succeed (what operators look for):
-- successes, nearly every row, skip it.
DROP INDEX ${prefix}task_attempt_finished_idx;
DROP INDEX ${prefix}task_attempt_kind_idx;
CREATE INDEX ${prefix}task_attempt_finished_brin ON ${prefix}task_attempt USING brin (finished_at);
CREATE INDEX ${prefix}task_attempt_unsucceeded_idx ON ${prefix}task_attempt (kind, id) WHERE outcome <> 'succeeded';
