package dev.errand.jpa.crash;

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
 * A child JVM seen from a test, as errand-core's crash tests use one: it runs a main class on the test's
 * class path, copies the child's output into the test's (prefixed), waits for a line, and kills the process
 * with SIGKILL. {@link #destroy()} in a {@code finally} block never leaves a process behind.
 */
final class ChildJvm {

    /** What {@code Process.exitValue()} reports on Linux for a process ended by signal 9: 128 + 9. */
    static final int SIGKILL_EXIT_STATUS = 137;

    private final Process process;
    private final String name;
    private final BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
    private final List<String> transcript = new ArrayList<>();

    private ChildJvm(Process process, String name) {
        this.process = process;
        this.name = name;
        pump(process.getInputStream(), System.out, true);
        pump(process.getErrorStream(), System.err, false);
    }

    /** Starts {@code main} with {@code arguments} on this JVM's class path. */
    static ChildJvm start(Class<?> main, String name, String... arguments) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(
                java,
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                main.getName()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command);
        // stdin stays a pipe the parent never writes: it closes when this JVM dies, and the child exits.
        builder.redirectInput(ProcessBuilder.Redirect.PIPE);
        return new ChildJvm(builder.start(), name);
    }

    /**
     * Waits for a stdout line that starts with {@code prefix} and returns it.
     *
     * @throws AssertionError if the child prints no such line in time, or exits first
     */
    String awaitLine(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("Child " + name + " printed no line starting with '" + prefix + "' within "
                        + timeout + "; its output:\n" + transcript());
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

    /** Kills the child with SIGKILL and returns its exit status (137). */
    int killHard(Duration timeout) throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("Child " + name + " is still alive " + timeout + " after SIGKILL");
        }
        return process.exitValue();
    }

    /** Whether the process still runs. */
    boolean isAlive() {
        return process.isAlive();
    }

    /** Kills the child if it still runs; safe in any {@code finally} block. */
    void destroy() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String transcript() {
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
                            echo.println("[" + name + (isStdout ? "] " : " err] ") + line);
                            if (isStdout) {
                                stdout.add(line);
                            }
                        }
                    } catch (IOException e) {
                        // The process died and its pipe broke; nothing more to read.
                    }
                },
                name + "-pump");
        thread.setDaemon(true);
        thread.start();
    }
}
