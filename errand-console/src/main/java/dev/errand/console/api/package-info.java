/** The console's routes: its page, its assets and its JSON API over Errand's public admin API. */
package dev.errand.console.api;
