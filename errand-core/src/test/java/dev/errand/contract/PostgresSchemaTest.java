package dev.errand.contract;

import dev.errand.testing.TestDatabase;

class PostgresSchemaTest extends SchemaContract {
    PostgresSchemaTest() {
        super(TestDatabase.POSTGRES);
    }
}
