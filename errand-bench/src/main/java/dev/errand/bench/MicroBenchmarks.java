package dev.errand.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/** Runs the JMH micro-benchmarks in {@code dev.errand.bench.jmh} briefly (one fork, 3 × 1 s measured). */
final class MicroBenchmarks {

    private MicroBenchmarks() {}

    static Map<String, String> run() throws Exception {
        var options = new OptionsBuilder()
                .include("dev\\.errand\\.bench\\.jmh\\..*")
                .forks(1)
                .warmupIterations(3)
                .warmupTime(TimeValue.seconds(1))
                .measurementIterations(3)
                .measurementTime(TimeValue.seconds(1))
                .jvmArgsAppend("-Xmx512m")
                .build();
        Map<String, String> results = new LinkedHashMap<>();
        for (RunResult run : new Runner(options).run()) {
            var primary = run.getPrimaryResult();
            String name = run.getParams().getBenchmark().replace("dev.errand.bench.jmh.", "");
            results.put(
                    name,
                    String.format(
                            java.util.Locale.ROOT,
                            "%.1f ± %.1f %s",
                            primary.getScore(),
                            primary.getScoreError(),
                            primary.getScoreUnit()));
        }
        return results;
    }
}
