/**
 * Actuator support: the {@code errand} health indicator and the {@code errand} endpoint.
 */
package dev.errand.spring.actuate;
