package dev.errand.contract;

import dev.errand.testing.TestDatabase;

class H2WakeUpTest extends WakeUpContract {
    H2WakeUpTest() {
        super(TestDatabase.H2);
    }
}
