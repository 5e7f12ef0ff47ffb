/**
 * Events: what the engine tells listeners as tasks move, for metrics and logs.
 */
package dev.errand.events;
