/**
 * This node: what its engine has done.
 */
package dev.errand.node;
