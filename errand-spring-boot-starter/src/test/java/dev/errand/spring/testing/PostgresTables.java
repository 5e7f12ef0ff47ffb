package dev.errand.spring.testing;

import dev.errand.testkit.TestDatabase;

/** {@link DatabaseTables} on the shared PostgreSQL database. */
public final class PostgresTables extends DatabaseTables {

    /** Creates the initializer. */
    public PostgresTables() {
        super(TestDatabase.POSTGRES);
    }
}
