package dev.errand.spring.jdbc;

import dev.errand.spring.testing.MariaDbTables;
import org.springframework.test.context.ContextConfiguration;

/**
 * {@link JdbcTransactionsTest} again on MariaDB: the same Spring transactions, services and templates,
 * with MariaDB's locking, its READ COMMITTED claims and its UTC {@code DATETIME} columns.
 */
@ContextConfiguration(initializers = MariaDbTables.class, inheritInitializers = false)
class MariaDbJdbcTransactionsTest extends JdbcTransactionsTest {}
