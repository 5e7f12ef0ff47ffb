package dev.errand.bench;

import java.util.Map;

/**
 * One trial's outcome.
 *
 * @param group the scenario group, such as {@code burn-down} or {@code nodes-4}
 * @param system the system id
 * @param peer the pairing's peer (the system Errand alternated with), or null
 * @param round the round, from 1
 * @param busyCoresBefore cores that other processes kept busy in the 2 s before the trial
 * @param loadBefore the load averages before the trial
 * @param result the figures, or an {@code error} entry
 */
public record TrialRecord(
        String group,
        String system,
        String peer,
        int round,
        double busyCoresBefore,
        String loadBefore,
        Map<String, String> result) {

    /** A figure as a number, or NaN when missing. */
    public double number(String key) {
        String value = result.get(key);
        if (value == null) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    public boolean failed() {
        return result.containsKey("error");
    }
}
