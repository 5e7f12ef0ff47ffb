package dev.errand.contract;

import dev.errand.testing.TestDatabase;

class PostgresAdminTest extends AdminContract {
    PostgresAdminTest() {
        super(TestDatabase.POSTGRES);
    }
}
