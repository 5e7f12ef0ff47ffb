package dev.errand.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The packaged {@code errand} jar, run as a process of its own, as a user runs it. */
final class Cli {

    /**
     * What one run printed and returned.
     *
     * @param exitCode the exit code
     * @param out stdout
     * @param err stderr
     * @param args the command line, for assertion messages
     */
    record Run(int exitCode, String out, String err, List<String> args) {
        @Override
        public String toString() {
            return "errand " + String.join(" ", args) + " -> " + exitCode + "\n--- stdout\n" + out + "--- stderr\n"
                    + err;
        }
    }

    private static final Path JAR = Path.of(System.getProperty(
            "errand.cli.jar", "target/errand-cli-" + System.getProperty("project.version", "0.1.0-SNAPSHOT") + ".jar"));

    private final Map<String, String> env;

    /** Runs with these environment variables and no other ERRAND_ variable. */
    Cli(Map<String, String> env) {
        this.env = env;
    }

    /** Runs the jar with the arguments and waits for it. */
    Run run(String... args) throws IOException, InterruptedException {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException("No CLI jar at " + JAR.toAbsolutePath() + ": run the tests with"
                    + " mvn verify (they run after the package phase)");
        }
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-Xshare:auto",
                "-jar",
                JAR.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(name -> name.startsWith("ERRAND_"));
        builder.environment().putAll(env);
        Path out = Files.createTempFile("errand-cli", ".out");
        Path err = Files.createTempFile("errand-cli", ".err");
        try {
            builder.redirectOutput(out.toFile()).redirectError(err.toFile());
            Process process = builder.start();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("errand " + String.join(" ", args) + " did not end within 60 s");
            }
            return new Run(
                    process.exitValue(),
                    Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8),
                    List.of(args));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
