/**
 * Errand's internals: the engine, the SQL store and its dialects, the built-in claim strategies, the
 * enqueuer, wake-ups and the schema. Nothing here is API: applications use {@code dev.errand} and its
 * concept packages, and plug in through {@code dev.errand.spi}. Only the composition root
 * ({@link dev.errand.Errand} and {@link dev.errand.ErrandBuilder}) reaches in here; the rule is checked by
 * a test.
 */
package dev.errand.internal;
