package dev.errand.contract;

import dev.errand.testing.TestDatabase;

class H2EnqueueTest extends EnqueueContract {
    H2EnqueueTest() {
        super(TestDatabase.H2);
    }
}
