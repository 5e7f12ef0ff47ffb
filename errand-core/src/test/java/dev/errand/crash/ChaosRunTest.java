package dev.errand.crash;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The short chaos run in CI: two worker JVMs and 3,000 tasks against a PostgreSQL server of the test's
 * own, with at least one of each fault (SIGKILL, database restart, connection cut, partition, SIGSTOP).
 * The full run is {@code scripts/chaos-run.sh}; see docs/RELIABILITY.md.
 */
class ChaosRunTest {

    @Test
    void nothingIsLostOrAppliedTwiceUnderEveryFault() throws Exception {
        ChaosRun.Plan plan = new ChaosRun.Plan("postgres", 3_000, 2, Duration.ofSeconds(2), 6, 19L);
        OwnServer probe = new OwnServer.Postgres(55432);
        Assumptions.assumeTrue(probe.available(), "needs PostgreSQL's server binaries for a server of its own");
        ChaosRun.Report report = new ChaosRun(plan).run();
        System.out.println(report);
        assertThat(report.errorLines()).as("engine ERROR lines").isEmpty();
        assertThat(report.lost()).as("lost").isZero();
        assertThat(report.duplicates()).as("duplicate transactional effects").isZero();
        assertThat(report.failed()).as("failed").isZero();
        assertThat(report.uncountedRuns())
                .as("non-transactional runs not counted")
                .isZero();
        assertThat(report.kills()).isPositive();
        assertThat(report.restarts()).isPositive();
        assertThat(report.cuts()).isPositive();
        assertThat(report.partitions()).isPositive();
        assertThat(report.stops()).isPositive();
    }
}
