-- A counter that every claim increments. The optimistic claim strategy updates a row only if the
-- version it read is still there, so a task that was claimed (and perhaps retried) since is skipped.
ALTER TABLE ${prefix}task ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
