package dev.errand.testing;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import javax.sql.DataSource;

/**
 * A real DataSource seen through a recorder: every transaction that a thread ends on it is written down
 * with the SQL of its statements and how it ended. A statement in auto-commit mode is a transaction of
 * its own. The connections and statements are the database's own; the recorder only watches them, so
 * a test can count the commits and statements that a background thread of Errand costs.
 */
public final class CountingDataSource {

    /**
     * One transaction as the database saw it.
     *
     * @param thread the name of the thread that ended it
     * @param statements the SQL of its statements, in order
     * @param ending {@code commit}, {@code rollback}, {@code autocommit} or {@code close}
     */
    public record Transaction(String thread, List<String> statements, String ending) {}

    private final DataSource target;
    private final List<Transaction> transactions = new CopyOnWriteArrayList<>();
    private final DataSource proxy;

    /** Watches {@code target}. */
    public CountingDataSource(DataSource target) {
        this.target = target;
        this.proxy = (DataSource) Proxy.newProxyInstance(
                DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class}, (self, method, args) -> {
                    Object result = invoke(target, method, args);
                    return result instanceof Connection c ? watch(c) : result;
                });
    }

    /** The DataSource to give to Errand. */
    public DataSource dataSource() {
        return proxy;
    }

    /** The transactions ended so far by threads whose name passes {@code thread}. */
    public List<Transaction> transactions(Predicate<String> thread) {
        return transactions.stream().filter(t -> thread.test(t.thread())).toList();
    }

    /** Forgets what was recorded so far. */
    public void clear() {
        transactions.clear();
    }

    private Connection watch(Connection connection) throws Exception {
        ConnectionWatch watch = new ConnectionWatch(connection, connection.getAutoCommit());
        return (Connection)
                Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, watch);
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private final class ConnectionWatch implements InvocationHandler {
        private final Connection connection;
        private boolean autoCommit;
        private List<String> open = new ArrayList<>();

        ConnectionWatch(Connection connection, boolean autoCommit) {
            this.connection = connection;
            this.autoCommit = autoCommit;
        }

        @Override
        public Object invoke(Object self, Method method, Object[] args) throws Throwable {
            switch (method.getName()) {
                case "prepareStatement", "prepareCall" -> statement((String) args[0]);
                case "commit" -> end("commit");
                case "rollback" -> {
                    if (args == null || args.length == 0) {
                        end("rollback");
                    }
                }
                case "setAutoCommit" -> {
                    boolean now = (Boolean) args[0];
                    if (now && !autoCommit && !open.isEmpty()) {
                        // Turning auto-commit on commits what is open.
                        end("commit");
                    }
                    autoCommit = now;
                }
                case "close" -> {
                    if (!open.isEmpty()) {
                        end("close");
                    }
                }
                default -> {}
            }
            Object result = CountingDataSource.invoke(connection, method, args);
            if (result instanceof Statement statement && method.getName().equals("createStatement")) {
                return Proxy.newProxyInstance(
                        Statement.class.getClassLoader(), new Class<?>[] {Statement.class}, (s, m, a) -> {
                            if (m.getName().startsWith("execute")
                                    && a != null
                                    && a.length > 0
                                    && a[0] instanceof String sql) {
                                statement(sql);
                            }
                            return CountingDataSource.invoke(statement, m, a);
                        });
            }
            return result;
        }

        private void statement(String sql) {
            open.add(sql);
            if (autoCommit) {
                end("autocommit");
            }
        }

        private void end(String ending) {
            transactions.add(new Transaction(Thread.currentThread().getName(), List.copyOf(open), ending));
            open = new ArrayList<>();
        }
    }
}
