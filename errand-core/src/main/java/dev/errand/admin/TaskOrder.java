package dev.errand.admin;

/** The order of a task listing: by id, which is also the order tasks were enqueued in. */
public enum TaskOrder {
    /** Oldest first (the default). */
    ID_ASCENDING,
    /** Newest first. */
    ID_DESCENDING
}
