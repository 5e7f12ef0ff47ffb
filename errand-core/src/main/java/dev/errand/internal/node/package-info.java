/**
 * The assembly of a node: {@link dev.errand.internal.node.Node} builds every store and service once, by
 * constructor, and owns start and stop; {@code Errand} is a facade on it. {@link dev.errand.internal.node.Nodes}
 * hands a node to the test kit for the sweeps that tests run at once.
 */
package dev.errand.internal.node;
