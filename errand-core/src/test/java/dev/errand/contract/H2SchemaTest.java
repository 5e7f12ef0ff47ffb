package dev.errand.contract;

import dev.errand.testing.TestDatabase;

class H2SchemaTest extends SchemaContract {
    H2SchemaTest() {
        super(TestDatabase.H2);
    }
}
