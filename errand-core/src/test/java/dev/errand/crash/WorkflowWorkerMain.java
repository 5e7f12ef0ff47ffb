package dev.errand.crash;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.batch.BatchEvent;
import dev.errand.batch.BatchRequest;
import dev.errand.batch.EnqueuedBatch;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.workflow.Workflow;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * A node for {@link WorkflowCrashTest}: it works a batch's tasks, the steps of diamond workflows and the
 * batch's callbacks until it is killed. Arguments: {@code <jdbcUrl> <user> <tablePrefix> <nodeId>}. It exits
 * when its stdin closes.
 */
public final class WorkflowWorkerMain {

    static final String READY = "READY";
    /**
     * Printed, followed by a count, each time this JVM has run another {@value #PROGRESS_EVERY} member
     * handlers: a parent that cannot read the database while the child holds it (an H2 file) kills on it.
     */
    static final String HANDLED = "HANDLED";

    private static final int PROGRESS_EVERY = 250;
    /** The optional fifth argument that makes every 100th member run for 1.5 s instead of 2 ms. */
    static final String SLOW_MEMBERS_ARGUMENT = "slow-members";

    /** Whether every 100th member runs for 1.5 s instead of 2 ms; see {@link H2FileCrashTest}. */
    static volatile boolean slowMembers;

    private static final AtomicLong HANDLED_MEMBERS = new AtomicLong();

    private WorkflowWorkerMain() {}

    /** Starts the node. */
    public static void main(String[] args) throws Exception {
        CrashWorkerMain.exitWhenStdinCloses();
        slowMembers = args.length > 4 && args[4].equals(SLOW_MEMBERS_ARGUMENT);
        HikariDataSource dataSource = CrashWorkerMain.pool(args[0], args[1], 12);
        Errand errand = kinds(
                        CrashWorkerMain.workerBuilder(dataSource, args[2], args[3])
                                .queue("default", 8),
                        dataSource,
                        args[2])
                .build();
        CrashWorkerMain.runUntilKilled(errand, READY);
    }

    /**
     * Registers the kinds: {@code member} (transactional: its effect commits with its completion),
     * {@code loose-member} (non-transactional: its effect is written at least once), {@code step} (a diamond
     * step that records a violation if a step it depends on has no effect yet) and {@code callback}.
     */
    static ErrandBuilder kinds(ErrandBuilder builder, DataSource dataSource, String prefix) {
        return builder.register(TaskDefinition.builder("member", Integer.class, (n, ctx) -> {
                            // slow on purpose: kills land mid-run
                            Thread.sleep(slowMembers && n % 100 == 0 ? 1_500 : 2);
                            CrashWorkerMain.insertEffect(ctx.connection(), prefix, ctx.taskId(), "member");
                            handled();
                        })
                        .maxAttempts(20)
                        .build())
                .register(TaskDefinition.builder("loose-member", Integer.class, (n, ctx) -> {
                            Thread.sleep(2); // slow on purpose: kills land mid-run
                            try (Connection own = dataSource.getConnection()) {
                                CrashWorkerMain.insertEffect(own, prefix, ctx.taskId(), "loose");
                            }
                            handled();
                        })
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .maxAttempts(20)
                        .build())
                .register(TaskDefinition.builder("step", String.class, (name, ctx) -> {
                            String flow = name.substring(0, name.indexOf(':'));
                            String step = name.substring(name.indexOf(':') + 1);
                            String[] before = step.equals("a")
                                    ? new String[0]
                                    : step.equals("d") ? new String[] {"b", "c"} : new String[] {"a"};
                            for (String dependency : before) {
                                if (effects(ctx.connection(), prefix, flow + ":" + dependency) == 0) {
                                    CrashWorkerMain.insertEffect(
                                            ctx.connection(), prefix, ctx.taskId(), "VIOLATION " + name);
                                }
                            }
                            CrashWorkerMain.insertEffect(ctx.connection(), prefix, ctx.taskId(), name);
                        })
                        .maxAttempts(20)
                        .build())
                .register(TaskDefinition.builder(
                                "callback",
                                String.class,
                                (event, ctx) -> CrashWorkerMain.insertEffect(
                                        ctx.connection(), prefix, ctx.taskId(), "callback " + event))
                        .maxAttempts(20)
                        .build());
    }

    /**
     * Enqueues the work the crash tests kill nodes in: a batch of {@code tasks} members, alternately
     * {@code member} and {@code loose-member}, with a {@code COMPLETE} and a {@code SUCCESS} callback, and
     * {@code diamonds} diamond workflows {@code w<n>} of {@code step} tasks (a; b and c after a; d after both).
     */
    static EnqueuedBatch enqueueWork(Errand errand, int tasks, int diamonds) {
        List<TaskRequest> members = new ArrayList<>(tasks);
        for (int i = 0; i < tasks; i++) {
            members.add(TaskRequest.of(i % 2 == 0 ? "member" : "loose-member", i));
        }
        EnqueuedBatch batch = errand.enqueueBatch(BatchRequest.builder()
                .addAll(members)
                .on(BatchEvent.COMPLETE, id -> TaskRequest.of("callback", "complete"))
                .on(BatchEvent.SUCCESS, id -> TaskRequest.of("callback", "success"))
                .build());
        for (int w = 0; w < diamonds; w++) {
            String flow = "w" + w;
            errand.enqueueWorkflow(Workflow.builder()
                    .step("a", TaskRequest.of("step", flow + ":a"))
                    .step("b", TaskRequest.of("step", flow + ":b"), "a")
                    .step("c", TaskRequest.of("step", flow + ":c"), "a")
                    .step("d", TaskRequest.of("step", flow + ":d"), "b", "c")
                    .build());
        }
        return batch;
    }

    private static void handled() {
        long handled = HANDLED_MEMBERS.incrementAndGet();
        if (handled % PROGRESS_EVERY == 0) {
            System.out.println(HANDLED + " " + handled);
            System.out.flush();
        }
    }

    private static long effects(Connection c, String prefix, String note) throws SQLException {
        try (PreparedStatement query = c.prepareStatement("SELECT COUNT(*) FROM " + prefix + "effect WHERE note = ?")) {
            query.setString(1, note);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }
}
