/**
 * Spring Boot auto-configuration for Errand and its {@code errand.*} properties.
 */
package dev.errand.spring.autoconfigure;
