/** Who may view the console and act in it, and the protection of its actions against request forgery. */
package dev.errand.console.access;
