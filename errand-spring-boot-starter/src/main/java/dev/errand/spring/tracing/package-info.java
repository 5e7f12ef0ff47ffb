/**
 * Tracing across enqueue and run over Micrometer's Observation API: an enqueue observation whose trace context is
 * stored on the task, and a run observation for each attempt, a child of it. Micrometer Tracing (over OpenTelemetry
 * or Brave) turns them into spans; Micrometer's meter handler turns them into timers.
 */
package dev.errand.spring.tracing;
