package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.testing.CountingDataSource;
import dev.errand.testing.CountingDataSource.Transaction;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a node's cluster heartbeat costs the database, counted on every database: each beat is one
 * transaction, ended by one commit, that moves the node's heartbeat on, takes or renews the leader lease
 * and reads the commands; the leader's beat also deletes old commands and reads the other nodes'
 * heartbeats, in that same transaction. Nothing else commits on the node's agent thread while no node
 * dies and no command is sent. The node's DataSource is a real one, watched (see
 * {@link CountingDataSource}).
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class HeartbeatCostContractTest extends ErrandTestSupport {

    private static final Duration BEAT = Duration.ofMillis(200);
    private static final Duration WINDOW = Duration.ofSeconds(3);

    HeartbeatCostContractTest(Target target) {
        super(target);
    }

    private Errand started(CountingDataSource db, String nodeId) {
        Errand node = node(builder(db.dataSource())
                .nodeId(nodeId)
                .threadNamePrefix(nodeId + "-")
                .heartbeatInterval(BEAT)
                .deadNodeTimeout(Duration.ofSeconds(5)));
        node.start();
        return node;
    }

    @Test
    void eachBeatIsOneCommitWithTheHeartbeatTheLeaseAndTheCommands() throws Exception {
        CountingDataSource leaderDb = new CountingDataSource(dataSource());
        CountingDataSource followerDb = new CountingDataSource(dataSource());
        Errand leader = started(leaderDb, "leader");
        Errand follower = started(followerDb, "follower");
        await().atMost(Duration.ofSeconds(5)).until(leader::isLeader);
        // Past the registrations and the first beats.
        Thread.sleep(2 * BEAT.toMillis());
        leaderDb.clear();
        followerDb.clear();
        Thread.sleep(WINDOW.toMillis()); // the point: the window whose transactions are counted
        List<Transaction> leaderBeats = leaderDb.transactions(thread -> thread.equals("leader-node"));
        List<Transaction> followerBeats = followerDb.transactions(thread -> thread.equals("follower-node"));
        assertThat(follower.isLeader()).isFalse();
        long expected = WINDOW.toMillis() / BEAT.toMillis();

        for (List<Transaction> beats : List.of(leaderBeats, followerBeats)) {
            // A loaded machine may run fewer beats, never more than one per interval (plus the one at the edge).
            assertThat(beats).hasSizeBetween((int) expected / 3, (int) expected + 1);
            assertThat(beats).allSatisfy(beat -> {
                assertThat(beat.ending()).isEqualTo("commit");
                assertThat(beat.statements())
                        .anySatisfy(sql -> assertThat(sql).startsWith("UPDATE " + prefix + "node SET heartbeat_at"));
                assertThat(beat.statements())
                        .anySatisfy(sql -> assertThat(sql).startsWith("UPDATE " + prefix + "leader "));
                assertThat(beat.statements())
                        .anySatisfy(sql -> assertThat(sql).contains(" FROM " + prefix + "node_command WHERE id > "));
            });
        }
        assertThat(followerBeats)
                .allSatisfy(beat -> assertThat(beat.statements()).hasSize(3));
        assertThat(leaderBeats).allSatisfy(beat -> {
            assertThat(beat.statements()).hasSize(5);
            assertThat(beat.statements())
                    .anySatisfy(sql -> assertThat(sql).startsWith("DELETE FROM " + prefix + "node_command"));
            assertThat(beat.statements())
                    .anySatisfy(sql -> assertThat(sql).contains(" FROM " + prefix + "node WHERE state = 'running'"));
        });
        System.out.println("[beat] " + database + ": in " + WINDOW.toMillis() + " ms at a " + BEAT.toMillis()
                + " ms heartbeat, the leader committed " + leaderBeats.size() + " times (5 statements each) and"
                + " the other node " + followerBeats.size() + " times (3 statements each)");
    }
}
