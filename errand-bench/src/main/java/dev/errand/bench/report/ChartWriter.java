package dev.errand.bench.report;

import dev.errand.bench.TrialRecord;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * Draws throughput per system and scenario as grouped bars on a logarithmic axis (the figures span
 * three orders of magnitude), with java.awt in headless mode.
 */
public final class ChartWriter {

    /** A bar group: a scenario group and the figure shown for it. */
    record Category(String group, String key, String label) {}

    static final List<Category> CATEGORIES = List.of(
            new Category("burn-down", "rate", "Burn-down"),
            new Category("steady", "rate", "Steady state"),
            new Category("enqueue", "batch_rate", "Batch enqueue"),
            new Category("enqueue", "single_rate", "Single enqueue"),
            new Category("backlog-10k", "rate", "Backlog 10k"),
            new Category("backlog-1M", "rate", "Backlog 1M"),
            new Category("nodes-2", "rate", "2 nodes"),
            new Category("nodes-4", "rate", "4 nodes"));

    static final List<String> SYSTEMS =
            List.of("errand", "errand-tx", "raw-sql", "raw-sql-tx", "db-scheduler", "jobrunr");

    static final List<Color> COLORS = List.of(
            new Color(0x1f77b4),
            new Color(0x9ecae1),
            new Color(0x2ca02c),
            new Color(0x98df8a),
            new Color(0xff7f0e),
            new Color(0xd62728));

    public void write(List<TrialRecord> records, Path file) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Figures figures = new Figures(records);
        List<Category> shown = CATEGORIES.stream()
                .filter(c -> SYSTEMS.stream().anyMatch(s -> !Double.isNaN(figures.median(c.group(), s, c.key()))))
                .toList();
        int width = 1500;
        int height = 720;
        int left = 90;
        int right = 30;
        int top = 90;
        int bottom = 90;
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);

        double max = 10;
        for (Category c : shown) {
            for (String s : SYSTEMS) {
                double v = figures.median(c.group(), s, c.key());
                if (!Double.isNaN(v)) {
                    max = Math.max(max, v);
                }
            }
        }
        double minExp = 1;
        double maxExp = Math.ceil(Math.log10(max));
        int plotHeight = height - top - bottom;
        int plotWidth = width - left - right;

        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 20));
        g.drawString("Throughput, tasks per second (median of runs; log scale; higher is better)", left, 32);

        // Axis and grid.
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        for (int e = (int) minExp; e <= maxExp; e++) {
            int y = top + plotHeight - (int) ((e - minExp) / (maxExp - minExp) * plotHeight);
            g.setColor(new Color(0xdddddd));
            g.drawLine(left, y, width - right, y);
            g.setColor(Color.DARK_GRAY);
            String label = e >= 3 ? (long) Math.pow(10, e - 3) + "k" : Long.toString((long) Math.pow(10, e));
            g.drawString(label, left - 10 - g.getFontMetrics().stringWidth(label), y + 5);
        }
        g.setColor(Color.BLACK);
        g.setStroke(new BasicStroke(1.5f));
        g.drawLine(left, top, left, top + plotHeight);
        g.drawLine(left, top + plotHeight, width - right, top + plotHeight);

        // Legend.
        int lx = left;
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        for (int i = 0; i < SYSTEMS.size(); i++) {
            g.setColor(COLORS.get(i));
            g.fillRect(lx, 50, 16, 16);
            g.setColor(Color.BLACK);
            g.drawString(SYSTEMS.get(i), lx + 22, 63);
            lx += 40 + g.getFontMetrics().stringWidth(SYSTEMS.get(i));
        }

        // Bars.
        int groupWidth = shown.isEmpty() ? plotWidth : plotWidth / shown.size();
        int barWidth = Math.max(6, (groupWidth - 24) / SYSTEMS.size());
        Font valueFont = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
        for (int ci = 0; ci < shown.size(); ci++) {
            Category c = shown.get(ci);
            int gx = left + ci * groupWidth + 12;
            for (int si = 0; si < SYSTEMS.size(); si++) {
                double v = figures.median(c.group(), SYSTEMS.get(si), c.key());
                if (Double.isNaN(v) || v <= 0) {
                    continue;
                }
                double exp = Math.max(minExp, Math.log10(v));
                int barHeight = (int) ((exp - minExp) / (maxExp - minExp) * plotHeight);
                int x = gx + si * barWidth;
                int y = top + plotHeight - barHeight;
                g.setColor(COLORS.get(si));
                g.fillRect(x, y, barWidth - 2, barHeight);
                g.setColor(Color.BLACK);
                g.setFont(valueFont);
                AffineTransform saved = g.getTransform();
                g.rotate(-Math.PI / 2, x + barWidth / 2.0 + 4, y - 4);
                g.drawString(compact(v), (float) (x + barWidth / 2.0 + 4), (float) (y - 4));
                g.setTransform(saved);
            }
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
            g.setColor(Color.BLACK);
            int textWidth = g.getFontMetrics().stringWidth(c.label());
            g.drawString(c.label(), gx + (groupWidth - 24 - textWidth) / 2, top + plotHeight + 24);
        }
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.setColor(Color.DARK_GRAY);
        g.drawString(
                "Same machine, same PostgreSQL, one run; see the run's BENCHMARKS.md for conditions and"
                        + " the ratios measured pair by pair.",
                left,
                height - 30);
        g.dispose();
        Files.createDirectories(file.toAbsolutePath().getParent());
        ImageIO.write(image, "png", file.toFile());
    }

    static String compact(double v) {
        if (v >= 10_000) {
            return String.format(Locale.ROOT, "%.0fk", v / 1000);
        }
        if (v >= 1_000) {
            return String.format(Locale.ROOT, "%.1fk", v / 1000);
        }
        return String.format(Locale.ROOT, "%.0f", v);
    }
}
