package dev.errand.crash;

import dev.errand.task.ExecutionMode;
import dev.errand.testkit.TestDatabase;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A running {@link CrashWorkerMain} JVM, seen from the test: it starts the process on the test's own
 * class path, copies the child's output into the test's output (prefixed, so that surefire reports
 * show both sides of a crash), waits for a line, and kills the process with SIGKILL.
 *
 * <p>Used so that tests can say "start a worker, wait until it is inside the handler, kill it" in three
 * lines, and so that {@link #destroy()} in a {@code finally} block never leaves a process behind.
 */
final class CrashChild {

    /** What {@code Process.exitValue()} reports on Linux for a process ended by signal 9: 128 + 9. */
    static final int SIGKILL_EXIT_STATUS = 137;

    private final Process process;
    private final String name;
    private final BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
    private final List<String> transcript = new ArrayList<>();
    private final long startNanos = System.nanoTime();

    private CrashChild(Process process, String name) {
        this.process = process;
        this.name = name;
        System.out.println("[" + name + "] started as pid " + process.pid());
        pump(process.getInputStream(), System.out, true);
        pump(process.getErrorStream(), System.err, false);
    }

    /**
     * Starts a worker JVM for {@code kind} in {@code mode} on the test's database and table prefix.
     * The class path is this JVM's own {@code java.class.path} (see {@link ChildClassPath}): under
     * surefire it may be a manifest-only jar, whose manifest {@code Class-Path} then carries the real
     * entries to the child as well.
     */
    static CrashChild start(TestDatabase database, String prefix, ExecutionMode mode, String kind, String nodeId)
            throws IOException {
        return start(database.url(), database.userName(), new String[] {prefix, mode.name(), kind, nodeId});
    }

    /**
     * The same on the database at {@code url} (through a connection pooler, say); {@code worker} holds the prefix,
     * the mode's name, the kind and the node id.
     */
    static CrashChild start(String url, String user, String[] worker) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(
                java,
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                ChildClassPath.get(),
                CrashWorkerMain.class.getName(),
                url,
                user,
                worker[0],
                worker[1],
                worker[2],
                worker[3]);
        ProcessBuilder builder = new ProcessBuilder(command);
        // stdin stays a pipe that the parent never writes: it closes when this JVM dies, and the child exits.
        builder.redirectInput(ProcessBuilder.Redirect.PIPE);
        return new CrashChild(builder.start(), worker[3]);
    }

    /**
     * Starts another main class of this package on the test's class path, with a heap of {@code heap}
     * (such as {@code 64m}) and the given arguments.
     */
    static CrashChild startMain(Class<?> main, String heap, String name, String... arguments) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(
                List.of(java, "-Xmx" + heap, "-XX:TieredStopAtLevel=1", "-cp", ChildClassPath.get(), main.getName()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.redirectInput(ProcessBuilder.Redirect.PIPE);
        return new CrashChild(builder.start(), name);
    }

    /** The child's process id. */
    long pid() {
        return process.pid();
    }

    /** Whether the process is still running. */
    boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Waits for a stdout line that starts with {@code prefix} and returns it.
     *
     * @throws AssertionError if the child prints no such line in time or exits first
     */
    String awaitLine(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("Child " + name + " printed no line starting with '" + prefix + "' within "
                        + timeout + " (alive: " + process.isAlive() + "); its output so far:\n" + transcript());
            }
            String line = stdout.poll(Math.min(left, TimeUnit.MILLISECONDS.toNanos(200)), TimeUnit.NANOSECONDS);
            if (line != null && line.startsWith(prefix)) {
                return line;
            }
            if (line == null && !process.isAlive() && stdout.isEmpty()) {
                throw new AssertionError("Child " + name + " exited with status " + process.exitValue()
                        + " before printing '" + prefix + "'; its output:\n" + transcript());
            }
        }
    }

    /**
     * Takes the next stdout line that starts with {@code prefix}, waiting at most {@code timeout}; other
     * lines are dropped. Returns null if none came in time (also when the child has exited).
     */
    String pollLine(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            String line = left <= 0 ? stdout.poll() : stdout.poll(left, TimeUnit.NANOSECONDS);
            if (line == null || line.startsWith(prefix)) {
                return line;
            }
        }
    }

    /**
     * Kills the child with SIGKILL ({@code destroyForcibly()} on Linux) and waits for it to die.
     *
     * @return the exit status, 137 for a process killed by SIGKILL
     */
    int killHard(Duration timeout) throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError(
                    "Child " + name + " (pid " + process.pid() + ") is still alive " + timeout + " after SIGKILL");
        }
        return process.exitValue();
    }

    /** Closes the child's stdin, as the death of this JVM would. */
    void closeStdin() throws IOException {
        process.getOutputStream().close();
    }

    /** Waits for the child to exit by itself; returns its status, or -1 if it is still running. */
    int awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
    }

    /** Kills the child if it still runs; safe to call in any {@code finally} block, and more than once. */
    void destroy() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                System.err.println("[" + name + "] pid " + process.pid() + " did not die within 10 s of SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Everything the child printed so far, stdout and stderr interleaved. */
    String transcript() {
        synchronized (transcript) {
            return String.join("\n", transcript);
        }
    }

    private void pump(InputStream stream, PrintStream echo, boolean isStdout) {
        Thread thread = new Thread(
                () -> {
                    try (BufferedReader reader =
                            new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = reader.readLine()) != null) {
                            synchronized (transcript) {
                                transcript.add(line);
                            }
                            long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
                            echo.println("[" + name + (isStdout ? "" : " err") + " +" + elapsed + "ms] " + line);
                            if (isStdout) {
                                stdout.add(line);
                            }
                        }
                    } catch (IOException e) {
                        // The process died and its pipe broke; nothing more to read.
                    }
                },
                name + (isStdout ? "-stdout" : "-stderr") + "-pump");
        thread.setDaemon(true);
        thread.start();
    }
}
