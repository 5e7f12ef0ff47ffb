package dev.errand.crash;

import dev.errand.Errand;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * A node for {@link ScheduleCrashTest}: it declares the test's schedules, fires them (and runs their tasks)
 * until it is killed. Arguments: {@code <jdbcUrl> <user> <tablePrefix> <nodeId> <schedules> <holdMillis>
 * [lookaheadMillis]} (the lookahead defaults to the builder's). It exits when its stdin closes.
 *
 * <p>So that the test can kill it in the middle of a firing transaction, its DataSource watches for the
 * statement that moves fired schedules on: when it has run (the due schedules are locked, their tasks and
 * their new next slots written, nothing committed yet), it prints {@link #LOCKED} and holds the transaction
 * open for {@code holdMillis} before the firing goes on. Nothing else about the statements, the locks or
 * the transaction is changed.
 */
public final class ScheduleWorkerMain {

    static final String READY = "READY";
    static final String LOCKED = "LOCKED";

    private ScheduleWorkerMain() {}

    /** Starts the node. */
    public static void main(String[] args) throws Exception {
        CrashWorkerMain.exitWhenStdinCloses();
        String prefix = args[2];
        int schedules = Integer.parseInt(args[4]);
        long holdMillis = Long.parseLong(args[5]);
        DataSource watched = watchFiring(CrashWorkerMain.pool(args[0], args[1], 8), prefix + "schedule", holdMillis);
        dev.errand.ErrandBuilder builder = ScheduleCrashTest.declare(Errand.builder(watched), schedules)
                .tablePrefix(prefix)
                .nodeId(args[3])
                .pollInterval(Duration.ofMillis(20))
                .succeededRetention(Duration.ofHours(1))
                // Schedules fire on the leader: a killed leader's lease is free again after this.
                .heartbeatInterval(Duration.ofMillis(500))
                .deadNodeTimeout(ScheduleCrashTest.LEADER_LEASE);
        if (args.length > 6) {
            builder.scheduleLookahead(Duration.ofMillis(Long.parseLong(args[6])));
        }
        Errand errand = builder.build();
        errand.start();
        System.out.println(READY);
        System.out.flush();
        while (true) {
            Thread.sleep(Long.MAX_VALUE); // the point: the child serves until it is killed
        }
    }

    /**
     * The pool, with the statement that moves fired schedules on announced and held (see the class comment):
     * any update of {@code table} but a change or a pause by name, so that a change to how or where schedules
     * fire (on every node, or on the leader only) still finds it. A firing transaction reaches it only when it
     * locked due schedules, and after it wrote their tasks: a kill during the hold rolls all of that back.
     */
    private static DataSource watchFiring(DataSource pool, String table, long holdMillis) {
        String advance = "update " + table.toLowerCase(Locale.ROOT) + " set ";
        return proxy(DataSource.class, pool, (method, result, args) -> {
            if (result instanceof Connection connection) {
                return proxy(Connection.class, connection, (connectionMethod, statement, sqlArgs) -> {
                    String sql = sqlArgs != null && sqlArgs.length > 0 && sqlArgs[0] instanceof String text
                            ? text.toLowerCase(Locale.ROOT)
                            : "";
                    if (statement instanceof PreparedStatement prepared
                            && sql.contains(advance)
                            && !sql.contains("set name =")
                            && !sql.contains("set paused =")) {
                        return proxy(PreparedStatement.class, prepared, (statementMethod, done, ignored) -> {
                            if (statementMethod.getName().startsWith("execute")) {
                                System.out.println(LOCKED);
                                System.out.flush();
                                // the point: the firing transaction holds its locks until the kill
                                Thread.sleep(holdMillis);
                            }
                            return done;
                        });
                    }
                    return statement;
                });
            }
            return result;
        });
    }

    /** What a proxy does with the result of a call it passed on. */
    @FunctionalInterface
    private interface After {
        Object apply(Method method, Object result, Object[] args) throws Exception;
    }

    private static <T> T proxy(Class<T> type, T target, After after) {
        InvocationHandler handler = (self, method, args) -> {
            Object result;
            try {
                result = method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            // unwrap and isWrapperFor reach the driver's objects, as they would without the proxy.
            return after.apply(method, result, args);
        };
        return type.cast(
                Proxy.newProxyInstance(ScheduleWorkerMain.class.getClassLoader(), new Class<?>[] {type}, handler));
    }
}
