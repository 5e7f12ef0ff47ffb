-- A workflow's graph; see the PostgreSQL migration for what each column and table means.
CREATE TABLE ${prefix}workflow_step (
    task_id      BIGINT        NOT NULL PRIMARY KEY,
    workflow_id  BIGINT        NOT NULL,
    step         VARCHAR(200)  NOT NULL,
    INDEX ${prefix}workflow_step_workflow_idx (workflow_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE ${prefix}workflow_edge (
    workflow_id   BIGINT  NOT NULL,
    from_task_id  BIGINT  NOT NULL,
    to_task_id    BIGINT  NOT NULL,
    PRIMARY KEY (workflow_id, from_task_id, to_task_id)
) ENGINE = InnoDB;
