package dev.errand.crash;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * A node for {@link WorkflowCrashTest}: it works a batch's tasks, the steps of diamond workflows and the
 * batch's callbacks until it is killed. Arguments: {@code <jdbcUrl> <user> <tablePrefix> <nodeId>}. It exits
 * when its stdin closes.
 */
public final class WorkflowWorkerMain {

    static final String READY = "READY";

    private WorkflowWorkerMain() {}

    /** Starts the node. */
    public static void main(String[] args) throws Exception {
        CrashWorkerMain.exitWhenStdinCloses();
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
                            Thread.sleep(2);
                            CrashWorkerMain.insertEffect(ctx.connection(), prefix, ctx.taskId(), "member");
                        })
                        .maxAttempts(20)
                        .build())
                .register(TaskDefinition.builder("loose-member", Integer.class, (n, ctx) -> {
                            Thread.sleep(2);
                            try (Connection own = dataSource.getConnection()) {
                                CrashWorkerMain.insertEffect(own, prefix, ctx.taskId(), "loose");
                            }
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
