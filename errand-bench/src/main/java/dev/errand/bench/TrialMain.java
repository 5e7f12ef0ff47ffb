package dev.errand.bench;

import java.util.Map;
import java.util.stream.Collectors;

/**
 * Runs one trial (one scenario on one system) in a JVM of its own and prints its figures on one line:
 * {@code RESULT<TAB>key=value<TAB>…}. The orchestrator ({@link BenchMain}) starts one per trial, so no
 * system inherits another's heap, JIT state or threads.
 */
public final class TrialMain {

    static final String RESULT = "RESULT";

    private TrialMain() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> result = Scenarios.run(Db.fromSystemProperties(), Params.parse(args));
        System.out.println(format(result));
        System.out.flush();
        System.exit(0);
    }

    static String format(Map<String, String> result) {
        return RESULT + "\t"
                + result.entrySet().stream()
                        .map(e -> e.getKey() + "=" + e.getValue())
                        .collect(Collectors.joining("\t"));
    }
}
