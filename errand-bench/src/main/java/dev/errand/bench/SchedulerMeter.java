package dev.errand.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import javax.sql.DataSource;

/**
 * What Errand's scheduler thread does on the database, seen through the node's {@link DataSource}: every
 * connection that thread checks out (one per transaction of the firing sweep) becomes a {@link Tx} with
 * its wall time, statements, inserts, commits, the thread's CPU time and the CPU time of the PostgreSQL
 * backend that served it (from {@code /proc/<pid>/schedstat}, so PostgreSQL must run on this machine;
 * zero otherwise). Connections that other threads check out (workers, poller, completer) are returned
 * untouched, so claiming pays one thread-name check per checkout and nothing else.
 */
public final class SchedulerMeter {

    /**
     * One connection checkout of the scheduler thread: one transaction of the firer.
     *
     * @param startNanos {@link System#nanoTime()} after the checkout
     * @param endNanos {@link System#nanoTime()} at the close
     * @param statements statements executed
     * @param inserts INSERT statements executed (one per firing transaction: it writes all its slots at once)
     * @param commits commits
     * @param jvmCpuNanos the scheduler thread's CPU time between checkout and close
     * @param dbCpuNanos the serving backend's CPU time between checkout and close
     */
    public record Tx(
            long startNanos,
            long endNanos,
            int statements,
            int inserts,
            int commits,
            long jvmCpuNanos,
            long dbCpuNanos) {}

    private static final Set<String> EXECUTES =
            Set.of("execute", "executeQuery", "executeUpdate", "executeBatch", "executeLargeUpdate");
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final String threadName;
    private final ConcurrentLinkedQueue<Tx> transactions = new ConcurrentLinkedQueue<>();
    private volatile long threadId = -1;
    private volatile long overheadNanos;

    /** Meters the thread of this name ({@code errand-scheduler} by default). */
    public SchedulerMeter(String threadName) {
        this.threadName = threadName;
    }

    /** The DataSource to give the node: it meters the scheduler thread's connections. */
    public DataSource wrap(DataSource target) {
        return proxy(DataSource.class, (proxy, method, args) -> {
            Object result = invoke(target, method, args);
            if (method.getName().equals("getConnection")
                    && Thread.currentThread().getName().equals(threadName)) {
                return meter((Connection) result);
            }
            return result;
        });
    }

    /** Every transaction so far, oldest first. */
    public List<Tx> transactions() {
        return List.copyOf(transactions);
    }

    /**
     * The scheduler thread's CPU time so far, less the time this meter spent reading {@code /proc} on it;
     * 0 before its first checkout.
     */
    public long threadCpuNanos() {
        long id = threadId;
        if (id < 0) {
            return 0;
        }
        long cpu = THREADS.getThreadCpuTime(id);
        return cpu < 0 ? 0 : cpu - overheadNanos;
    }

    private Connection meter(Connection connection) throws Exception {
        long overheadStart = System.nanoTime();
        threadId = Thread.currentThread().getId();
        int pid = backendPid(connection);
        long dbStart = backendCpuNanos(pid);
        long cpuStart = THREADS.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        overheadNanos += start - overheadStart;
        int[] counts = new int[3]; // statements, inserts, commits
        return proxy(Connection.class, (proxy, method, args) -> {
            String name = method.getName();
            if (name.equals("close")) {
                long end = System.nanoTime();
                long cpu = THREADS.getCurrentThreadCpuTime() - cpuStart;
                long db = backendCpuNanos(pid) - dbStart;
                transactions.add(new Tx(start, end, counts[0], counts[1], counts[2], cpu, db));
                overheadNanos += System.nanoTime() - end;
            } else if (name.equals("commit")) {
                counts[2]++;
            }
            Object result = invoke(connection, method, args);
            if (result instanceof Statement statement) {
                boolean insert = args != null
                        && args.length > 0
                        && args[0] instanceof String sql
                        && sql.stripLeading().toUpperCase(Locale.ROOT).startsWith("INSERT");
                return meter(statement, insert, counts);
            }
            return result;
        });
    }

    private Statement meter(Statement statement, boolean insertSql, int[] counts) {
        Class<? extends Statement> type = statement instanceof java.sql.CallableStatement
                ? java.sql.CallableStatement.class
                : statement instanceof java.sql.PreparedStatement ? java.sql.PreparedStatement.class : Statement.class;
        return proxy(type, (proxy, method, args) -> {
            if (EXECUTES.contains(method.getName())) {
                counts[0]++;
                boolean insert = args != null && args.length > 0 && args[0] instanceof String sql
                        ? sql.stripLeading().toUpperCase(Locale.ROOT).startsWith("INSERT")
                        : insertSql;
                if (insert) {
                    counts[1]++;
                }
            }
            return invoke(statement, method, args);
        });
    }

    private static int backendPid(Connection connection) {
        try {
            return connection.unwrap(org.postgresql.PGConnection.class).getBackendPID();
        } catch (Exception notPostgres) {
            return -1;
        }
    }

    /** A process's CPU time in nanoseconds, from {@code /proc/<pid>/schedstat}; 0 if unreadable. */
    static long backendCpuNanos(int pid) {
        if (pid <= 0) {
            return 0;
        }
        try {
            String line = Files.readString(Path.of("/proc", Integer.toString(pid), "schedstat"));
            return Long.parseLong(line.substring(0, line.indexOf(' ')));
        } catch (Exception e) {
            return 0;
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return (T) Proxy.newProxyInstance(SchedulerMeter.class.getClassLoader(), new Class<?>[] {type}, handler);
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
