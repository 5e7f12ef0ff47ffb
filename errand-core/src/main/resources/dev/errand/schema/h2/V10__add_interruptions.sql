-- How many attempts of the task the infrastructure cut off (a lost connection, a database shutdown or
-- restart). Those attempts are given back, so they do not count against max_attempts; this counter records
-- them, and bounds them (see GUARANTEES.md).
ALTER TABLE ${prefix}task ADD COLUMN interruptions INTEGER NOT NULL DEFAULT 0;
