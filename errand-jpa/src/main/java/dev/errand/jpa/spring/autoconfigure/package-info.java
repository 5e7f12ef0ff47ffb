/**
 * Spring Boot auto-configuration of entity queues and their {@code errand.jpa.*} properties.
 */
package dev.errand.jpa.spring.autoconfigure;
