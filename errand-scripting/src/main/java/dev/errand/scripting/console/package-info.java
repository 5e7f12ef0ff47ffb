/** The script routes of the console's JSON API, for users with the console's admin authority. */
package dev.errand.scripting.console;
