/**
 * Flow control: cluster-wide concurrency limits per task kind, declared with {@code
 * TaskDefinition.Builder.concurrencyLimit} and changed at run time through {@link dev.errand.flow.FlowAdmin}.
 * See docs/FLOW-CONTROL.md.
 */
package dev.errand.flow;
