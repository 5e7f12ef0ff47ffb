-- A workflow's graph, written when the workflow is enqueued and read by the admin API: each step's task with the
-- step's name, and each 'after' edge between two steps' tasks. A workflow's id is the task id of its first step.
-- The dependency conditions ('errand:after:<id>' in task_condition) still do the waiting; they are deleted as they
-- are fulfilled, so the edges are kept here. Rows stay after their tasks are pruned (a few bytes a step).
CREATE TABLE ${prefix}workflow_step (
    task_id      BIGINT        PRIMARY KEY,
    workflow_id  BIGINT        NOT NULL,
    step         VARCHAR(200)  NOT NULL
);

CREATE INDEX ${prefix}workflow_step_workflow_idx ON ${prefix}workflow_step (workflow_id);

CREATE TABLE ${prefix}workflow_edge (
    workflow_id   BIGINT  NOT NULL,
    from_task_id  BIGINT  NOT NULL,
    to_task_id    BIGINT  NOT NULL,
    PRIMARY KEY (workflow_id, from_task_id, to_task_id)
);
