/** Spring Boot auto-configuration of scripting and its {@code errand.scripting.*} properties; off by default. */
package dev.errand.scripting.autoconfigure;
