-- Nothing changes here. On PostgreSQL this version adds a partial index of the attempts that did not succeed;
-- H2 has no partial indexes, and an index of every attempt by kind and outcome would cost each success a further
-- entry. The version exists so that every dialect has the same list of scripts.
SELECT 1;
