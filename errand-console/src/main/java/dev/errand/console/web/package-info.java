/** The console's HTTP headers. */
package dev.errand.console.web;
