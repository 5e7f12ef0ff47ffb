/**
 * Payload encoding: task payloads are JSON, written and read with Jackson.
 */
package dev.errand.json;
