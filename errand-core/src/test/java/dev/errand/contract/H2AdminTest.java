package dev.errand.contract;

import dev.errand.testing.TestDatabase;

class H2AdminTest extends AdminContract {
    H2AdminTest() {
        super(TestDatabase.H2);
    }
}
