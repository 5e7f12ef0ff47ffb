package dev.errand.contract;

import dev.errand.testing.TestDatabase;

class PostgresRetryTest extends RetryContract {
    PostgresRetryTest() {
        super(TestDatabase.POSTGRES);
    }
}
