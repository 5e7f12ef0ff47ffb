package dev.errand.internal.engine;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes the threads that run a queue's handlers: platform daemon threads, or virtual threads where the JVM has them
 * (Java 21 and later) and the node asked for them. Errand's baseline is Java 17, so the virtual-thread API is reached
 * by a method handle, looked up once.
 *
 * @param namePrefix the prefix of the threads' names, followed by a counter from 1
 * @param virtual whether they are virtual threads
 */
record WorkerThreads(String namePrefix, boolean virtual) {

    /** {@code Thread.ofVirtual()}, or {@code null} on a JVM without virtual threads. */
    private static final MethodHandle OF_VIRTUAL = ofVirtual();

    /** Requires virtual threads to exist when asked for; {@code ErrandSettings} has said so already. */
    WorkerThreads {
        if (virtual && OF_VIRTUAL == null) {
            throw new IllegalStateException("virtual threads need Java 21 or later, and this JVM is Java "
                    + Runtime.version().feature());
        }
    }

    /** The factory of these threads. */
    ThreadFactory factory() {
        return virtual ? virtualFactory() : platformFactory();
    }

    private ThreadFactory platformFactory() {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, namePrefix + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    private ThreadFactory virtualFactory() {
        try {
            // Thread.ofVirtual().name(prefix, 1).factory()
            Object builder = OF_VIRTUAL.invoke();
            Class<?> builderType = Class.forName("java.lang.Thread$Builder");
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            Object named = lookup.findVirtual(
                            builderType, "name", MethodType.methodType(builderType, String.class, long.class))
                    .invoke(builder, namePrefix, 1L);
            return (ThreadFactory)
                    lookup.findVirtual(builderType, "factory", MethodType.methodType(ThreadFactory.class))
                            .invoke(named);
        } catch (Throwable e) {
            throw new IllegalStateException(
                    "Errand could not create virtual threads on Java "
                            + Runtime.version().feature() + ": " + e,
                    e);
        }
    }

    private static MethodHandle ofVirtual() {
        try {
            Class<?> builderType = Class.forName("java.lang.Thread$Builder$OfVirtual");
            return MethodHandles.publicLookup()
                    .findStatic(Thread.class, "ofVirtual", MethodType.methodType(builderType));
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }
}
