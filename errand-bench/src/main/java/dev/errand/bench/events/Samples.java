package dev.errand.bench.events;

import dev.errand.bench.Cpu;
import dev.errand.bench.Params;
import dev.errand.bench.report.Figures;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Medians, spreads and the formatting of repeated measurements in one trial's figures. */
final class Samples {

    private Samples() {}

    static double median(List<Double> values) {
        return Figures.median(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    static double min(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    static double max(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    /** The values in run order, comma-separated: one field of a trial's result line. */
    static String list(List<Double> values) {
        return values.stream().map(Samples::fmt).collect(Collectors.joining(","));
    }

    static String fmt(double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }

    /** The q-quantile (0..1) of sorted nanoseconds, nearest rank, in milliseconds. */
    static double quantileMs(long[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1e6;
    }

    /**
     * Waits, before one repetition, until other processes keep fewer than {@code quiet-cores} cores busy
     * (default 0.7), at most {@code quiet-wait-s} seconds (default 0); returns the busy cores last seen.
     */
    static double awaitQuiet(Params p) throws InterruptedException {
        double quiet = p.decimal("quiet-cores", 0.7);
        int waitSeconds = p.integer("quiet-wait-s", 0);
        long deadline = System.nanoTime() + waitSeconds * 1_000_000_000L;
        double busy = Cpu.busyCoresOver(waitSeconds == 0 ? 200 : 1_000);
        while (busy > quiet && System.nanoTime() < deadline) {
            Thread.sleep(3_000);
            busy = Cpu.busyCoresOver(2_000);
        }
        return busy;
    }
}
