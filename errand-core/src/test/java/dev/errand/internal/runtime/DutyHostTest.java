package dev.errand.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A duty's failures count against the node's health while the duty runs, and not once it was stopped: a run in
 * flight at the stop may fail on what the application closes after it (its pool), which is no problem of the node.
 */
class DutyHostTest {

    @Test
    void aRunThatFailsAfterItsDutyStoppedIsNotAProblem() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch released = new CountDownLatch(1);
        DutyHost host = new DutyHost("duty-host-test-stopped-");
        host.start(
                Duty.Scope.EVERY_NODE,
                List.of(new Duty("probe", Duration.ofMillis(10), Duty.Scope.EVERY_NODE, "probe", () -> {
                    entered.countDown();
                    awaitIgnoringInterrupts(released);
                    // Fatal on purpose: a single reported failure of this kind makes the node unhealthy.
                    throw new OutOfMemoryError("the pool is closed");
                })),
                () -> true);
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        host.stop(Duty.Scope.EVERY_NODE);
        released.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> !threadRuns("duty-host-test-stopped-probe"));
        assertThat(host.health().healthy()).as("%s", host.health()).isTrue();
    }

    @Test
    void aRunThatFailsWhileItsDutyRunsIsAProblem() {
        DutyHost host = new DutyHost("duty-host-test-running-");
        host.start(
                Duty.Scope.EVERY_NODE,
                List.of(new Duty("probe", Duration.ofMillis(10), Duty.Scope.EVERY_NODE, "probe", () -> {
                    throw new OutOfMemoryError("out of memory");
                })),
                () -> true);
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> !host.health().healthy());
            assertThat(host.health().problems()).containsKey("probe");
        } finally {
            host.stop(Duty.Scope.EVERY_NODE);
        }
    }

    private static void awaitIgnoringInterrupts(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                if (latch.await(10, TimeUnit.SECONDS)) {
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean threadRuns(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals(name) && t.isAlive());
    }
}
