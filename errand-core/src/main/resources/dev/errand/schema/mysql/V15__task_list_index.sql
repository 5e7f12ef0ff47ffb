-- The console's and TaskAdmin's task list: tasks of one state and kind in id order ("failed tasks of kind X",
-- keyset pages and bulk actions on them) read one index range instead of the table. There are no partial
-- indexes here, so it holds every state, like the other state-led indexes.
CREATE INDEX ${prefix}task_list_kind_idx ON ${prefix}task (state, kind, id);
