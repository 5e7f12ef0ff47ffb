package dev.errand.bench.report;

import dev.errand.bench.TrialRecord;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/** Medians over trials. */
public final class Figures {

    private final List<TrialRecord> records;

    public Figures(List<TrialRecord> records) {
        this.records = records;
    }

    /** The median of {@code key} over every run of {@code system} in {@code group}. */
    public double median(String group, String system, String key) {
        return median(records.stream()
                .filter(r -> r.group().equals(group) && r.system().equals(system))
                .mapToDouble(r -> r.number(key))
                .toArray());
    }

    /**
     * The median of {@code key} over the runs of {@code system} in the pairing of {@code errand} with
     * {@code peer} (pass either of the two as {@code system}).
     */
    public double pairMedian(String group, String system, String peer, String key) {
        return median(records.stream()
                .filter(r -> r.group().equals(group) && r.system().equals(system) && Objects.equals(r.peer(), peer))
                .mapToDouble(r -> r.number(key))
                .toArray());
    }

    /** The values of {@code key} in the pairing, in run order. */
    public double[] pairValues(String group, String system, String peer, String key) {
        return records.stream()
                .filter(r -> r.group().equals(group) && r.system().equals(system) && Objects.equals(r.peer(), peer))
                .mapToDouble(r -> r.number(key))
                .toArray();
    }

    /** The first run's text figure, or null. */
    public String text(String group, String system, String key) {
        return records.stream()
                .filter(r -> r.group().equals(group) && r.system().equals(system))
                .map(r -> r.result().get(key))
                .filter(Objects::nonNull)
                .findFirst()
                .orElse(null);
    }

    public static double median(double[] values) {
        double[] finite =
                Arrays.stream(values).filter(v -> !Double.isNaN(v)).sorted().toArray();
        if (finite.length == 0) {
            return Double.NaN;
        }
        int mid = finite.length / 2;
        return finite.length % 2 == 1 ? finite[mid] : (finite[mid - 1] + finite[mid]) / 2;
    }
}
