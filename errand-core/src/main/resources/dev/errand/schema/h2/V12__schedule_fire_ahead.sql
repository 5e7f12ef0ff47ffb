-- Fire-ahead: a schedule writes its next slot's task up to the lookahead before the slot (FireAhead), at
-- fire_at, so that many schedules on one minute are written spread over the minute before it.
-- next_run_at is the next slot not written yet; last_run_at the last slot written, which may still be to
-- come; prior_run_at the slot written before it, the previous run while last_run_at is still ahead.
-- Existing schedules write their next slot when it comes, as before; later slots are spread.
ALTER TABLE ${prefix}schedule ADD COLUMN fire_at TIMESTAMP(6) WITH TIME ZONE;
ALTER TABLE ${prefix}schedule ADD COLUMN prior_run_at TIMESTAMP(6) WITH TIME ZONE;
UPDATE ${prefix}schedule SET fire_at = next_run_at;
ALTER TABLE ${prefix}schedule ALTER COLUMN fire_at SET NOT NULL;
DROP INDEX ${prefix}schedule_due_idx;
CREATE INDEX ${prefix}schedule_fire_idx ON ${prefix}schedule (paused, fire_at);
