package dev.errand.contract;

import dev.errand.testing.TestDatabase;

class PostgresRescueTest extends RescueContract {
    PostgresRescueTest() {
        super(TestDatabase.POSTGRES);
    }
}
