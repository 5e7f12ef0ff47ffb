/** Spring Boot auto-configuration of the console and its {@code errand.console.*} properties. */
package dev.errand.console.autoconfigure;
