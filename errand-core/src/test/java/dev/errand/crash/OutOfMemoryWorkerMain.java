package dev.errand.crash;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.task.TaskDefinition;
import java.time.Duration;
import tools.jackson.databind.JsonNode;

/**
 * A worker JVM with a small heap, for {@link OutOfMemoryRecoveryTest}: claiming a batch of huge payloads
 * throws {@link OutOfMemoryError} in its poller. It prints {@value #UNHEALTHY} when its node reports
 * itself unhealthy, {@value #HEALTHY} when it is healthy again after that, and {@value #RAN} with the
 * task id for every task its handler runs.
 *
 * <p>Arguments: {@code <jdbcUrl> <user> <tablePrefix>}. It exits when its stdin closes.
 */
public final class OutOfMemoryWorkerMain {

    static final String READY = "READY";
    static final String UNHEALTHY = "UNHEALTHY";
    static final String HEALTHY = "HEALTHY";
    static final String RAN = "RAN";

    private OutOfMemoryWorkerMain() {}

    /** Starts the worker. */
    public static void main(String[] args) throws Exception {
        CrashWorkerMain.exitWhenStdinCloses();
        HikariDataSource dataSource = CrashWorkerMain.pool(args[0], args[1], 6);
        Errand errand = Errand.builder(dataSource)
                .tablePrefix(args[2])
                .queue("default", 1)
                .pollInterval(Duration.ofMillis(100))
                .rescueInterval(Duration.ofHours(1))
                .register(TaskDefinition.builder("blob", JsonNode.class, (payload, context) -> {
                            System.out.println(RAN + " " + context.taskId());
                            System.out.flush();
                        })
                        .build())
                .build();
        errand.start();
        System.out.println(READY);
        System.out.flush();
        boolean wasUnhealthy = false;
        while (true) {
            try {
                boolean healthy = errand.health().healthy();
                if (!healthy && !wasUnhealthy) {
                    System.out.println(UNHEALTHY + " " + errand.health().problems());
                    System.out.flush();
                    wasUnhealthy = true;
                } else if (healthy && wasUnhealthy) {
                    System.out.println(HEALTHY);
                    System.out.flush();
                    wasUnhealthy = false;
                }
            } catch (OutOfMemoryError heapFullForAMoment) {
                // This observer allocates too: while the poller's huge claim fills the heap, it may be the
                // thread that gets the error. It must not end the JVM the test watches; look again.
            }
            Thread.sleep(100); // the child watches its health until it is killed; health has no listener
        }
    }
}
