/**
 * The plain-Java demo: Errand on an embedded H2 file database and a HikariCP pool, without any
 * framework. Start with {@link dev.errand.examples.plain.PlainDemo}.
 */
package dev.errand.examples.plain;
