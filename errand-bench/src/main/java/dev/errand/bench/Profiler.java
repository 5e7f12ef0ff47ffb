package dev.errand.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * A JFR recording of a measured window (the {@code profile} settings: execution samples every 10 ms),
 * summarised as the hottest top frames and the hottest Errand frames, the way {@code jfr print
 * --events jdk.ExecutionSample} output would be tallied by hand. async-profiler is not available here.
 */
public final class Profiler implements AutoCloseable {

    private final Recording recording;
    private final Path file;

    private Profiler(Path file) throws IOException, java.text.ParseException {
        this.file = file;
        this.recording = new Recording(Configuration.getConfiguration("profile"));
        recording.start();
    }

    /** Starts recording into {@code file} (written on {@link #close()}). */
    public static Profiler start(Path file) throws IOException, java.text.ParseException {
        return new Profiler(file);
    }

    @Override
    public void close() throws IOException {
        recording.stop();
        Files.createDirectories(file.toAbsolutePath().getParent());
        recording.dump(file);
        recording.close();
    }

    /** The {@code limit} most frequent top frames and first dev.errand frames of the execution samples. */
    public static String summarise(Path file, int limit) throws IOException {
        Map<String, Integer> top = new HashMap<>();
        Map<String, Integer> errand = new HashMap<>();
        Map<String, Integer> threads = new HashMap<>();
        int samples = 0;
        for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
            if (!event.getEventType().getName().equals("jdk.ExecutionSample")) {
                continue;
            }
            RecordedStackTrace stack = event.getStackTrace();
            if (stack == null || stack.getFrames().isEmpty()) {
                continue;
            }
            samples++;
            List<RecordedFrame> frames = stack.getFrames();
            top.merge(name(frames.get(0)), 1, Integer::sum);
            for (RecordedFrame frame : frames) {
                if (frame.getMethod().getType().getName().startsWith("dev.errand.")
                        && !frame.getMethod().getType().getName().startsWith("dev.errand.bench")) {
                    errand.merge(name(frame), 1, Integer::sum);
                    break;
                }
            }
            var thread = event.getThread("sampledThread");
            String threadName = thread == null ? "?" : thread.getJavaName();
            threads.merge(threadName == null ? "?" : threadName.replaceAll("-\\d+$", "-N"), 1, Integer::sum);
        }
        StringBuilder out = new StringBuilder();
        out.append("execution samples: ").append(samples).append('\n');
        out.append("by thread:\n").append(table(threads, samples, limit));
        out.append("hottest top frames:\n").append(table(top, samples, limit));
        out.append("hottest first Errand frames:\n").append(table(errand, samples, limit));
        return out.toString();
    }

    private static String name(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }

    private static String table(Map<String, Integer> counts, int total, int limit) {
        return counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(limit)
                .map(e -> String.format("  %5.1f%%  %s", 100.0 * e.getValue() / Math.max(1, total), e.getKey()))
                .collect(Collectors.joining("\n", "", "\n"));
    }
}
