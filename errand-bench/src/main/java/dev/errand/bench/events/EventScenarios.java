package dev.errand.bench.events;

import dev.errand.bench.Db;
import dev.errand.bench.Pairing;
import dev.errand.bench.Params;
import java.util.List;
import java.util.Map;

/** The events scenarios: their pairings in a plan, and the entry point that runs one. */
public final class EventScenarios {

    /** The scenario names, which are also their groups in a plan. */
    public static final List<String> NAMES = List.of("events-trigger", "events-pairs", "events-claim");

    private EventScenarios() {}

    /**
     * Errand alone in each scenario, with the sizes of the plan {@code plan} ({@code full} or {@code smoke}).
     * Each trial repeats and alternates its own measurements, so one round is enough.
     */
    public static List<Pairing> pairings(String plan) {
        boolean smoke = plan.equals("smoke");
        Params trigger = new Params()
                .with("scenario", "events-trigger")
                .with("waiting", smoke ? 200 : 10_000)
                .with("trials", smoke ? 2 : 9)
                .with("warm", smoke ? 1 : 3)
                .with("quiet-wait-s", smoke ? 0 : 120);
        Params pairs = new Params()
                .with("scenario", "events-pairs")
                .with("producers", 4)
                .with("rounds", smoke ? 1 : 4)
                .with("warm-ms", smoke ? 200 : 2_000)
                .with("measure-ms", smoke ? 400 : 8_000)
                .with("paced", smoke ? 10 : 250)
                .with("quiet-wait-s", smoke ? 0 : 120);
        Params claim = new Params()
                .with("scenario", "events-claim")
                .with("n", smoke ? 400 : 100_000)
                .with("waiting", smoke ? 2_000 : 1_000_000)
                .with("rounds", smoke ? 1 : 16)
                .with("warm", smoke ? 100 : 20_000)
                .with("quiet-wait-s", smoke ? 0 : 120);
        return List.of(
                new Pairing("events-trigger", trigger, "errand", null),
                new Pairing("events-pairs", pairs, "errand", null),
                new Pairing("events-claim", claim, "errand", null));
    }

    /** Runs the events scenario named by {@code p.scenario}; the system under test is always Errand. */
    public static Map<String, String> run(Db db, Params p) throws Exception {
        String scenario = p.require("scenario");
        return switch (scenario) {
            case "events-trigger" -> TriggerScenario.run(db, p);
            case "events-pairs" -> PairsScenario.run(db, p);
            case "events-claim" -> ClaimScenario.run(db, p);
            default -> throw new IllegalArgumentException("Unknown events scenario " + scenario + "; known: " + NAMES);
        };
    }
}
