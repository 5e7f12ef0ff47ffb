/**
 * Capturing the log events of a handler's thread into its attempt's processing log, through Logback.
 */
package dev.errand.spring.logging;
