/**
 * Bulk actions in the background: the console's POST starts one and answers at once, and the job's progress (rows
 * done of the total, finished or failed with its error) is read while it runs. The job's record lives in the
 * memory of the node that runs it.
 */
package dev.errand.console.bulk;
