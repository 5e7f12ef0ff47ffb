package dev.errand.crash;

import dev.errand.Errand;
import java.time.Duration;

/**
 * A node for {@link ScheduleCrashTest}: it fires a one-second schedule (and runs its tasks) until it is
 * killed. Arguments: {@code <jdbcUrl> <user> <tablePrefix> <nodeId>}. It exits when its stdin closes.
 */
public final class ScheduleWorkerMain {

    static final String READY = "READY";

    private ScheduleWorkerMain() {}

    /** Starts the node. */
    public static void main(String[] args) throws Exception {
        CrashWorkerMain.exitWhenStdinCloses();
        Errand errand = Errand.builder(CrashWorkerMain.pool(args[0], args[1], 8))
                .tablePrefix(args[2])
                .nodeId(args[3])
                .pollInterval(Duration.ofMillis(20))
                .succeededRetention(Duration.ofHours(1))
                .register(ScheduleCrashTest.tick())
                .schedule(ScheduleCrashTest.everySecond())
                .build();
        errand.start();
        System.out.println(READY);
        System.out.flush();
        while (true) {
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
