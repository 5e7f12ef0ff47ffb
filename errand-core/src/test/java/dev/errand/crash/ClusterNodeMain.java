package dev.errand.crash;

import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import java.time.Duration;

/**
 * A cluster node for {@link ClusterCrashTest}, in a JVM of its own. Its handler of kind {@code work}
 * prints {@value #RAN} with the task id and then, for payload 1, hangs until the process is killed; so
 * does its transactional kind {@code hold}, which keeps its task's row locked meanwhile.
 * Arguments: {@code <jdbcUrl> <user> <tablePrefix> <nodeId> <group or -> <exclusive> <pollIntervalMillis>
 * [processing]} (processing defaults to true).
 * It exits when its stdin closes.
 */
public final class ClusterNodeMain {

    static final String READY = "READY";
    static final String RAN = "RAN";
    static final String LEADER = "LEADER";

    private ClusterNodeMain() {}

    /** Starts the node. */
    public static void main(String[] args) throws Exception {
        CrashWorkerMain.exitWhenStdinCloses();
        ErrandBuilder builder = Errand.builder(CrashWorkerMain.pool(args[0], args[1], 8))
                .tablePrefix(args[2])
                .nodeId(args[3])
                .exclusive(Boolean.parseBoolean(args[5]))
                .processingEnabled(args.length < 8 || Boolean.parseBoolean(args[7]))
                .pollInterval(Duration.ofMillis(Long.parseLong(args[6])))
                .heartbeatInterval(Duration.ofMillis(200))
                .deadNodeTimeout(Duration.ofSeconds(1))
                .leaseDuration(Duration.ofSeconds(60))
                .rescueInterval(Duration.ofHours(1))
                .register(ClusterCrashTest.work(args[3], ClusterNodeMain::ran))
                .register(ClusterCrashTest.hold(ClusterNodeMain::ran));
        if (!args[4].equals("-")) {
            builder.nodeGroups(args[4]);
        }
        Errand errand = builder.build();
        errand.start();
        System.out.println(READY);
        System.out.flush();
        boolean announced = false;
        while (true) {
            Thread.sleep(50); // the child lives until killed; isLeader has no listener, so it looks
            if (!announced && errand.isLeader()) {
                announced = true;
                System.out.println(LEADER);
                System.out.flush();
            }
        }
    }

    private static void ran(long taskId) {
        System.out.println(RAN + " " + taskId);
        System.out.flush();
    }
}
