package dev.errand.contract;

import dev.errand.testing.TestDatabase;

class H2ExecutionTest extends ExecutionContract {
    H2ExecutionTest() {
        super(TestDatabase.H2);
    }
}
