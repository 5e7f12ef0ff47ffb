/**
 * Script tasks: scripts stored in the database by name and version ({@link dev.errand.scripting.ScriptAdmin}), run
 * by a kind of their own through JSR-223 ({@link dev.errand.scripting.ErrandScripting}). Off unless installed. A
 * stored script runs with the application's privileges; see {@code docs/SCRIPTING.md}.
 */
package dev.errand.scripting;
