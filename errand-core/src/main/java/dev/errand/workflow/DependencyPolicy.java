package dev.errand.workflow;

/** What a workflow's dependent task does when a task it depends on fails for good or is cancelled. */
public enum DependencyPolicy {
    /** It is cancelled, and so are the tasks that depend on it (the default). */
    CANCEL,
    /** It runs anyway, once its other dependencies are done. */
    RUN
}
