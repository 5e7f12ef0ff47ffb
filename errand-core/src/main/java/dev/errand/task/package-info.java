/**
 * Task kinds: what a task is, how its handler runs, and what it sees while it runs.
 */
package dev.errand.task;
