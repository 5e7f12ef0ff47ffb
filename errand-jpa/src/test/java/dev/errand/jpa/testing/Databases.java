package dev.errand.jpa.testing;

import dev.errand.testkit.TestDatabase;
import java.util.stream.Stream;

/** The argument sources of the parameterized entity queue tests. */
public final class Databases {

    private Databases() {}

    /** PostgreSQL, MariaDB and pooled H2 (those of {@code errand.test.databases}, when it is set). */
    public static Stream<TestDatabase> all() {
        return Stream.of(TestDatabase.POSTGRES, TestDatabase.MARIADB, TestDatabase.H2)
                .filter(TestDatabase.selected()::contains);
    }

    /** The server databases that a child JVM can reach. */
    public static Stream<TestDatabase> servers() {
        return all().filter(database -> !database.isH2());
    }
}
