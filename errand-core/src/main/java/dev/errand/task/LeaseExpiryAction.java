package dev.errand.task;

/** What rescue does with a running task of a kind whose lease expired because its worker was lost. */
public enum LeaseExpiryAction {

    /** Schedule another attempt (the lost attempt counts) until the task's attempts are used up. */
    RETRY,

    /** Fail the task at once with a "worker lost" error; the failure callback runs. */
    FAIL
}
