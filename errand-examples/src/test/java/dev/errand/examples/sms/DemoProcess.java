package dev.errand.examples.sms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The SMS demo in a process of its own, started as {@code java -cp} with this module's test class path
 * (the built classes and their dependencies, without slf4j-simple), its output in a log file.
 */
final class DemoProcess {

    private final Process process;
    private final Path log;

    private DemoProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Starts the demo in {@code directory} with {@code args}; its output goes to {@code directory/logName}. */
    static DemoProcess start(Path directory, String logName, String... args) throws IOException {
        Files.createDirectories(directory);
        String classPath = System.getProperty("java.class.path");
        assertThat(classPath).as("the test class path").contains("classes");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                classPath,
                SmsDemoApplication.class.getName()));
        command.addAll(List.of(args));
        Path log = directory.resolve(logName);
        Process process = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        return new DemoProcess(process, log);
    }

    /** Waits until the log contains {@code text}; fails if the process ends or the time passes first. */
    void awaitLog(String text, Duration timeout) throws IOException {
        try {
            await().atMost(timeout)
                    .pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        if (log().contains(text)) {
                            return true;
                        }
                        assertThat(process.isAlive())
                                .as("the demo is running; its log:%n%s", log())
                                .isTrue();
                        return false;
                    });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("'" + text + "' within " + timeout + "; the log:\n" + log(), e);
        }
    }

    /** Sends SIGTERM, as Ctrl-C or {@code kill} does. */
    void terminate() {
        process.destroy();
    }

    /** Waits for the process to end and returns its exit code; fails if it does not end in time. */
    int awaitExit(Duration timeout) throws IOException, InterruptedException {
        boolean ended = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!ended) {
            process.destroyForcibly();
        }
        assertThat(ended)
                .as("the demo ended within %s; its log:%n%s", timeout, log())
                .isTrue();
        return process.exitValue();
    }

    /** Kills the process if it is still running. */
    void kill() {
        process.destroyForcibly();
    }

    /** The output so far. */
    String log() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }
}
