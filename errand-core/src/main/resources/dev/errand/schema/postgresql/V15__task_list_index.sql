-- The console's and TaskAdmin's task list: finished tasks of one kind in id order ("failed tasks of kind X",
-- keyset pages and bulk actions on them) read one index range instead of the table. Partial on the final
-- states, as task_finished_idx: a task enters it once, when it ends, and the claim path never touches it.
CREATE INDEX ${prefix}task_list_kind_idx ON ${prefix}task (state, kind, id)
    WHERE state IN ('succeeded', 'failed', 'cancelled');
