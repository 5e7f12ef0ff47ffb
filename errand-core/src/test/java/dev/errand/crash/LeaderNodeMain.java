package dev.errand.crash;

import dev.errand.Errand;
import java.time.Duration;

/**
 * A node for {@link LeaderTakeoverTest}, in a JVM of its own, with the default heartbeat interval and leader
 * lease and processing off: it prints {@value #LEADER} when it becomes the leader and {@value #FOLLOWER} when it
 * finds it no longer is. Arguments: {@code <jdbcUrl> <user> <tablePrefix> <nodeId>}. It exits when its stdin
 * closes.
 */
public final class LeaderNodeMain {

    static final String LEADER = "LEADER";
    static final String FOLLOWER = "FOLLOWER";

    private LeaderNodeMain() {}

    /** Starts the node. */
    public static void main(String[] args) throws Exception {
        CrashWorkerMain.exitWhenStdinCloses();
        Errand errand = Errand.builder(CrashWorkerMain.pool(args[0], args[1], 4))
                .tablePrefix(args[2])
                .nodeId(args[3])
                .processingEnabled(false)
                .shutdownTimeout(Duration.ofSeconds(1))
                .build();
        errand.start();
        boolean leading = false;
        while (true) {
            Thread.sleep(20); // isLeader has no listener, so the child looks
            boolean now = errand.isLeader();
            if (now != leading) {
                leading = now;
                System.out.println(now ? LEADER : FOLLOWER);
                System.out.flush();
            }
        }
    }
}
