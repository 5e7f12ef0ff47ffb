package dev.errand.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.Errand;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Leader takeover with the default heartbeat (10 s) and leader lease (3 s), between a leader in a JVM of its own
 * ({@link LeaderNodeMain}) and a node in this one: a SIGKILLed leader is replaced in under 5 s; a leader paused
 * (SIGSTOP, as a long GC pause would) for less than its lease keeps leading and no other node takes over; one paused
 * for longer loses the lease to the other node and learns it once it runs again.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#servers")
class LeaderTakeoverTest extends ErrandTestSupport {

    LeaderTakeoverTest(Target target) {
        super(target);
    }

    @BeforeAll
    static void snapshotChildClassPath() {
        ChildClassPath.get();
    }

    private CrashChild leaderChild() throws Exception {
        CrashChild child = CrashChild.startMain(
                LeaderNodeMain.class, "128m", "leader", database.url(), database.userName(), prefix, "leader");
        child.awaitLine(LeaderNodeMain.LEADER, Duration.ofSeconds(30));
        return child;
    }

    /** The node in this JVM, with the library's defaults for the heartbeat and the lease. */
    private Errand follower() {
        Errand node = node(dev.errand.Errand.builder(dataSource())
                .tablePrefix(prefix)
                .nodeId("follower")
                .processingEnabled(false)
                .shutdownTimeout(Duration.ofSeconds(1)));
        node.start();
        return node;
    }

    /** Watches {@code node} for {@code window}; returns whether it led at any moment. */
    private static boolean ledDuring(Errand node, Duration window) throws InterruptedException {
        long end = System.nanoTime() + window.toNanos();
        while (System.nanoTime() < end) {
            if (node.isLeader()) {
                return true;
            }
            Thread.sleep(10); // the point: sampled through the window
        }
        return false;
    }

    private static void signal(CrashChild child, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder(List.of("kill", "-" + signal, Long.toString(child.pid()))).start();
        assertThat(kill.waitFor()).isZero();
    }

    @Test
    void aKilledLeaderIsReplacedInUnderFiveSeconds() throws Exception {
        CrashChild leader = leaderChild();
        try {
            Errand follower = follower();
            assertThat(ledDuring(follower, Duration.ofSeconds(1))).isFalse();

            long killed = System.nanoTime();
            assertThat(leader.killHard(Duration.ofSeconds(10))).isEqualTo(CrashChild.SIGKILL_EXIT_STATUS);
            while (!follower.isLeader() && System.nanoTime() - killed < TimeUnit.SECONDS.toNanos(30)) {
                Thread.sleep(10); // measuring the takeover: sampled every 10 ms
            }
            long takeoverMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
            System.out.printf("[leader] %s: SIGKILL to takeover %d ms%n", database.displayName(), takeoverMillis);
            assertThat(follower.isLeader()).isTrue();
            assertThat(takeoverMillis).isLessThan(5_000);
        } finally {
            leader.destroy();
        }
    }

    @Test
    void aPauseShorterThanTheLeaseChangesNothingAndALongerOneHandsLeadershipOver() throws Exception {
        CrashChild leader = leaderChild();
        try {
            Errand follower = follower();

            signal(leader, "STOP");
            boolean tookOver = ledDuring(follower, Duration.ofMillis(1_500));
            signal(leader, "CONT");
            assertThat(tookOver)
                    .as("a 1.5 s pause, shorter than the 3 s lease: no takeover")
                    .isFalse();
            assertThat(ledDuring(follower, Duration.ofSeconds(2))).isFalse();

            signal(leader, "STOP");
            long paused = System.nanoTime();
            assertThat(ledDuring(follower, Duration.ofSeconds(6)))
                    .as("a 6 s pause, longer than the lease: the other node takes over")
                    .isTrue();
            System.out.printf(
                    "[leader] %s: SIGSTOP to takeover %d ms%n",
                    database.displayName(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - paused));
            signal(leader, "CONT");
            assertThat(leader.awaitLine(LeaderNodeMain.FOLLOWER, Duration.ofSeconds(5)))
                    .as("the paused leader learns it lost the lease at its next try")
                    .isEqualTo(LeaderNodeMain.FOLLOWER);
            assertThat(follower.isLeader()).isTrue();
        } finally {
            leader.destroy();
        }
    }
}
