package dev.errand.internal.engine;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.Set;

/**
 * The connection a transactional handler gets: the transaction's own, refusing the calls that would
 * end or split the transaction that also completes the task. A handler that commits and then throws
 * would otherwise keep its writes once per attempt; one that rolls back and returns would lose its
 * writes while the task counts as done. A refused call throws, and the attempt fails with the reason
 * even if the handler swallows the exception. ({@code unwrap} still reaches the raw connection, for
 * drivers' own features; what is done with it is the handler's own responsibility.)
 */
final class GuardedConnection implements InvocationHandler {

    private static final Set<String> REFUSED = Set.of("commit", "rollback", "close", "setAutoCommit", "abort");

    private final Connection connection;
    private volatile String misuse;

    private GuardedConnection(Connection connection) {
        this.connection = connection;
    }

    /** Wraps the transaction's connection. */
    static GuardedConnection around(Connection connection) {
        return new GuardedConnection(connection);
    }

    /** The connection to hand to the handler. */
    Connection connection() {
        return (Connection)
                Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, this);
    }

    /** What the handler tried that it must not, or {@code null}. */
    String misuse() {
        return misuse;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] arguments) throws Throwable {
        String name = method.getName();
        // rollback(Savepoint) stays allowed: it undoes part of the work inside the same transaction.
        boolean partial = name.equals("rollback") && method.getParameterCount() == 1;
        if (REFUSED.contains(name) && !partial) {
            misuse = "The handler called Connection." + name + "() on the task's connection. Errand owns that"
                    + " transaction: it commits the handler's writes together with the task's completion. Return"
                    + " normally to commit, throw to roll back, or throw RetryLater.after(delay).commitWrites() to"
                    + " keep the writes and run again later";
            throw new IllegalStateException(misuse);
        }
        try {
            return method.invoke(connection, arguments);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
