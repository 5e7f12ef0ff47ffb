/** The batch scenario: a batch of no-op tasks reaching its callback against a plain burn-down, in one run. */
package dev.errand.bench.batches;
