package dev.errand.spring.testing;

import dev.errand.testkit.TestDatabase;

/** {@link DatabaseTables} on the shared MariaDB database. */
public final class MariaDbTables extends DatabaseTables {

    /** Creates the initializer. */
    public MariaDbTables() {
        super(TestDatabase.MARIADB);
    }
}
