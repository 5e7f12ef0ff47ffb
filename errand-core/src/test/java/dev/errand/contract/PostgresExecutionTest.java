package dev.errand.contract;

import dev.errand.testing.TestDatabase;

class PostgresExecutionTest extends ExecutionContract {
    PostgresExecutionTest() {
        super(TestDatabase.POSTGRES);
    }
}
