-- Why Errand paused a schedule: set by the firing node when it cannot read or fire the row (an invalid cron,
-- an unknown zone, an interval under a second, no slot left...), so that one bad row costs only itself and
-- the reason is seen where the schedule is listed. NULL for a schedule that runs, or that an operator paused.
-- errand.schedules().resume(...) and an upsert of a valid definition clear it.
ALTER TABLE ${prefix}schedule ADD COLUMN pause_reason VARCHAR(1000) NULL;
-- The schedule table was created with the database's default collation, often case-insensitive
-- (utf8mb4_general_ci): 'Nightly' and 'nightly' were then one row, and declaring one overwrote the other.
-- Names compare exactly, as on PostgreSQL and H2, and as on every other Errand table.
ALTER TABLE ${prefix}schedule CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
