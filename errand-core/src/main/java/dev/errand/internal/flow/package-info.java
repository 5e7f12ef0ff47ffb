/**
 * Flow control: cluster-wide concurrency limits per task kind, enforced in the claim's transaction with slot
 * rows taken by {@code FOR UPDATE SKIP LOCKED} and held for as long as the task that took them runs. See
 * docs/FLOW-CONTROL.md.
 */
package dev.errand.internal.flow;
