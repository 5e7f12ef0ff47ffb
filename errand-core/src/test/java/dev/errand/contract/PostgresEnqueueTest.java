package dev.errand.contract;

import dev.errand.testing.TestDatabase;

class PostgresEnqueueTest extends EnqueueContract {
    PostgresEnqueueTest() {
        super(TestDatabase.POSTGRES);
    }
}
