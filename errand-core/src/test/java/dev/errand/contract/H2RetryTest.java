package dev.errand.contract;

import dev.errand.testing.TestDatabase;

class H2RetryTest extends RetryContract {
    H2RetryTest() {
        super(TestDatabase.H2);
    }
}
