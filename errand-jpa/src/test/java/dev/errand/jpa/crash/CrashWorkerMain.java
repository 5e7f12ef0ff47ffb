package dev.errand.jpa.crash;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.errand.jpa.EntityQueues;
import dev.errand.jpa.queue.EntityQueueDefinition;
import dev.errand.jpa.testing.JpaDatabase;
import dev.errand.jpa.testing.Message;
import dev.errand.jpa.testing.Unindexed;
import jakarta.persistence.EntityManagerFactory;
import java.time.Duration;
import java.util.List;

/**
 * The node that {@link EntityQueueCrashTest} kills: it processes the "send" queue of the test's tables,
 * writes each item's effect and flushes it, prints {@code IN_PROCESSOR <id> <attempt>}, and then, for a
 * message whose body is {@code stall}, waits forever inside its transaction.
 *
 * <p>Arguments: JDBC URL, user, table prefix, node id. It exits when its stdin closes, so that it never
 * outlives the test JVM.
 */
public final class CrashWorkerMain {

    static final String IN_PROCESSOR = "IN_PROCESSOR";
    static final String STALL = "stall";

    private CrashWorkerMain() {}

    public static void main(String[] args) throws Exception {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(args[0]);
        config.setUsername(args[1]);
        config.setPassword("");
        config.setMaximumPoolSize(6);
        HikariDataSource dataSource = new HikariDataSource(config);
        EntityManagerFactory emf =
                JpaDatabase.create(dataSource, args[2], List.of(Message.class, Unindexed.class), "none");
        EntityQueues node = EntityQueues.builder(emf)
                .nodeId(args[3])
                .leaseDuration(Duration.ofSeconds(2))
                .indexCheck(false)
                .register(EntityQueueDefinition.builder(Message.class, "sendState", (message, context) -> {
                            message.sent();
                            context.entityManager().flush();
                            System.out.println(IN_PROCESSOR + " " + message.id() + " " + context.attempt());
                            if (STALL.equals(message.body())) {
                                Thread.sleep(Long.MAX_VALUE); // the point: stalls until the process is killed
                            }
                            Thread.sleep(20); // slow on purpose: kills land mid-run
                        })
                        .name("send")
                        .concurrency(2)
                        .pollInterval(Duration.ofMillis(50))
                        .build())
                .build();
        node.start();
        System.out.println("READY");
        while (System.in.read() != -1) {
            // Nothing is ever written; read() returns -1 when the parent dies.
        }
        System.exit(3);
    }
}
