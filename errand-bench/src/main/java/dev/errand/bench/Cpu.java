package dev.errand.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU use over a window: the whole machine's (from {@code /proc/stat}, so PostgreSQL's backends count)
 * and this JVM's own. Figures are in cores: 2.0 means both cores of a 2-core machine were busy.
 */
public final class Cpu {

    private final long startWall = System.nanoTime();
    private final long[] startMachine = machine();
    private final long startProcess = processNanos();

    /** Starts a window now. */
    public static Cpu start() {
        return new Cpu();
    }

    /** Cores busy on the whole machine since the start. */
    public double machineCores() {
        long[] now = machine();
        long busy = now[0] - startMachine[0];
        long total = now[1] - startMachine[1];
        if (total <= 0) {
            return 0;
        }
        return (double) busy / total * Runtime.getRuntime().availableProcessors();
    }

    /** Cores this JVM used since the start. */
    public double processCores() {
        long wall = System.nanoTime() - startWall;
        return wall <= 0 ? 0 : (double) (processNanos() - startProcess) / wall;
    }

    /** {busy jiffies, total jiffies} of the machine; zeros where /proc/stat is missing. */
    static long[] machine() {
        try {
            String line = Files.readAllLines(Path.of("/proc/stat")).get(0);
            String[] f = line.trim().split("\\s+");
            long user = Long.parseLong(f[1]);
            long nice = Long.parseLong(f[2]);
            long system = Long.parseLong(f[3]);
            long idle = Long.parseLong(f[4]);
            long iowait = Long.parseLong(f[5]);
            long irq = Long.parseLong(f[6]);
            long softirq = Long.parseLong(f[7]);
            long steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
            long busy = user + nice + system + irq + softirq + steal;
            return new long[] {busy, busy + idle + iowait};
        } catch (IOException | RuntimeException e) {
            return new long[] {0, 0};
        }
    }

    static long processNanos() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return 0;
    }

    /** The 1-, 5- and 15-minute load averages, as /proc/loadavg prints them. */
    public static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "n/a";
        }
    }

    /** Cores busy on the machine over the next {@code millis}, while this process idles. */
    public static double busyCoresOver(long millis) throws InterruptedException {
        Cpu window = start();
        Thread.sleep(millis);
        return window.machineCores();
    }
}
