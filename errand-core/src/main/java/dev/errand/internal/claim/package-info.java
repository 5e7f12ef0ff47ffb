/**
 * The built-in claim strategies: {@code FOR UPDATE SKIP LOCKED} in one or two statements, and the
 * optimistic-version fallback. Applications choose one with {@link dev.errand.ClaimStrategies}.
 */
package dev.errand.internal.claim;
