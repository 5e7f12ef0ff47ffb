/**
 * Errand: durable, transactional background tasks in the application's own relational database.
 * Start with {@link dev.errand.Errand#builder(javax.sql.DataSource)}.
 */
package dev.errand;
