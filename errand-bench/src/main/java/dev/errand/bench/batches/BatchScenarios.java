package dev.errand.bench.batches;

import dev.errand.bench.Db;
import dev.errand.bench.Pairing;
import dev.errand.bench.Params;
import java.util.List;
import java.util.Map;

/** The batch scenario: its pairing in a plan, and the entry point that runs it. */
public final class BatchScenarios {

    /** The scenario names, which are also their groups in a plan. */
    public static final List<String> NAMES = List.of("batch-burn");

    private BatchScenarios() {}

    /**
     * Errand alone, a batch against a plain burn-down in the same trial, with the sizes of the plan
     * {@code plan} ({@code full} or {@code smoke}). The trial alternates its own rounds, so one is enough.
     */
    public static List<Pairing> pairings(String plan) {
        boolean smoke = plan.equals("smoke");
        Params burn = new Params()
                .with("scenario", "batch-burn")
                .with("n", smoke ? 400 : 100_000)
                .with("rounds", smoke ? 1 : 6)
                .with("warm", smoke ? 100 : 20_000)
                .with("quiet-wait-s", smoke ? 0 : 15);
        return List.of(new Pairing("batch-burn", burn, "errand", null));
    }

    /** Runs the batch scenario named by {@code p.scenario}; the system under test is always Errand. */
    public static Map<String, String> run(Db db, Params p) throws Exception {
        String scenario = p.require("scenario");
        if (!scenario.equals("batch-burn")) {
            throw new IllegalArgumentException("Unknown batch scenario " + scenario + "; known: " + NAMES);
        }
        return BatchScenario.run(db, p);
    }
}
