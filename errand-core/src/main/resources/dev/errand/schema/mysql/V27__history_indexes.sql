-- Nothing changes here. On PostgreSQL this version replaces the history's B-trees on finishing time with a BRIN
-- index and lists pages by id; MariaDB has no BRIN index to serve time ranges, so its history keeps the
-- (finished_at) and (kind, finished_at) indexes and lists pages by finishing time. The version exists so that
-- every dialect has the same list of scripts.
SELECT 1;
