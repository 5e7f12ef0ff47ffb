package dev.errand.contract;

import dev.errand.testing.TestDatabase;
import org.junit.jupiter.api.Test;

class PostgresWakeUpTest extends WakeUpContract {
    PostgresWakeUpTest() {
        super(TestDatabase.POSTGRES);
    }

    @Test
    void otherNodesCommitWakesThroughListenNotify() throws Exception {
        otherNodesCommitWakesThroughTheDatabase();
    }
}
