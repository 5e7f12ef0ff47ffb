/**
 * Administration: find, list, count, cancel, retry, reschedule and delete tasks.
 */
package dev.errand.admin;
