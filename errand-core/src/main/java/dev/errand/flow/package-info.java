/**
 * Flow control: cluster-wide concurrency, per-key and rate limits per task kind (declared with {@code
 * TaskDefinition.Builder}), concurrency limits per queue (declared with {@code
 * ErrandBuilder.queueConcurrencyLimit}), all changed at run time and shown through {@link
 * dev.errand.flow.FlowAdmin}. See docs/FLOW-CONTROL.md.
 */
package dev.errand.flow;
