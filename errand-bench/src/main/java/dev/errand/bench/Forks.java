package dev.errand.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Starts child JVMs on this JVM's class path, passing the database settings along. */
final class Forks {

    private Forks() {}

    static ProcessBuilder java(Class<?> main, List<String> args, String... jvmOptions) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(jvmOptions));
        command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        for (String key : List.of(
                "bench.db.url",
                "bench.db.schema",
                "bench.db.user",
                "bench.db.password",
                "bench.errand.version",
                "bench.errand.claimBatch",
                "bench.errand.completionBatch",
                "bench.errand.processingLogs",
                "bench.errand.prefetch")) {
            String value = System.getProperty(key);
            if (value != null) {
                command.add("-D" + key + "=" + value);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(args);
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
    }
}
