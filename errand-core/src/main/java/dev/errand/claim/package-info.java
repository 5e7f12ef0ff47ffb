/**
 * Claiming: how a node takes due tasks for itself without stepping on other nodes.
 */
package dev.errand.claim;
