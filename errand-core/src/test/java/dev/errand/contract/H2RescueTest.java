package dev.errand.contract;

import dev.errand.testing.TestDatabase;

class H2RescueTest extends RescueContract {
    H2RescueTest() {
        super(TestDatabase.H2);
    }
}
