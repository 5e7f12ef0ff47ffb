package dev.errand.crash;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.task.TaskDefinition;

/**
 * The worker JVM that {@link GroupCommitCrashTest} kills with SIGKILL in the middle of a group: a node whose
 * transactional kind commits up to {@value #GROUP} tasks together. Each handler writes an effect row on the
 * task's connection; the handler of the task with payload {@value #BLOCKING_PAYLOAD} prints {@value
 * CrashWorkerMain#IN_HANDLER} with how many of the group's tasks ran before it, then sleeps until it is killed,
 * so that the tasks before it have written their effects in the group's transaction, uncommitted.
 *
 * <p>Arguments: {@code <jdbcUrl> <user> <tablePrefix> <kind> <nodeId>}.
 */
public final class GroupCommitWorkerMain {

    /** The group size, and the queue's concurrency, so that one claim of the backlog is one group. */
    static final int GROUP = 20;
    /** The payload whose handler blocks. */
    static final int BLOCKING_PAYLOAD = 10;

    private GroupCommitWorkerMain() {}

    /** Starts the worker; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: GroupCommitWorkerMain <jdbcUrl> <user> <tablePrefix> <kind> <nodeId>");
            System.exit(CrashWorkerMain.USAGE_EXIT_STATUS);
        }
        CrashWorkerMain.exitWhenStdinCloses();
        String prefix = args[2];
        String kind = args[3];
        String nodeId = args[4];
        HikariDataSource dataSource = CrashWorkerMain.pool(args[0], args[1], 8);
        int[] ranBefore = new int[1];
        Errand errand = CrashWorkerMain.workerBuilder(dataSource, prefix, nodeId)
                .queue("default", GROUP)
                .register(TaskDefinition.builder(kind, Integer.class, (payload, context) -> {
                            CrashWorkerMain.insertEffect(
                                    context.connection(),
                                    prefix,
                                    context.taskId(),
                                    CrashWorkerMain.note(nodeId, context.attempt()));
                            if (payload == BLOCKING_PAYLOAD) {
                                System.out.println(CrashWorkerMain.IN_HANDLER + " " + ranBefore[0]);
                                System.out.flush();
                                while (true) {
                                    Thread.sleep(Long.MAX_VALUE); // the point: killed here, mid-group
                                }
                            }
                            ranBefore[0]++;
                        })
                        .groupCommit(GROUP)
                        .maxAttempts(5)
                        .build())
                .build();
        CrashWorkerMain.runUntilKilled(errand, CrashWorkerMain.READY);
    }
}
