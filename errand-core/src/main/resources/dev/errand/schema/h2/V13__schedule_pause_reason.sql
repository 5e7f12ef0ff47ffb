-- Why Errand paused a schedule: set by the firing node when it cannot read or fire the row (an invalid cron,
-- an unknown zone, an interval under a second, no slot left...), so that one bad row costs only itself and
-- the reason is seen where the schedule is listed. NULL for a schedule that runs, or that an operator paused.
-- errand.schedules().resume(...) and an upsert of a valid definition clear it.
ALTER TABLE ${prefix}schedule ADD COLUMN pause_reason VARCHAR(1000);
