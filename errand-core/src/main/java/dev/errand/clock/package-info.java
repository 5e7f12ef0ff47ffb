/**
 * Time. Every comparison Errand makes uses the database clock; this package lets tests shift it.
 */
package dev.errand.clock;
