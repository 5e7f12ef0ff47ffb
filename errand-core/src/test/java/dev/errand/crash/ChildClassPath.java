package dev.errand.crash;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The class path a {@link CrashWorkerMain} child runs on: this JVM's {@code java.class.path}, with every
 * class directory (such as {@code target/classes} and {@code target/test-classes}) replaced by a private
 * copy taken once per test JVM.
 *
 * <p>Why: a child loads its classes lazily from disk while it starts, over about a second. A build
 * running at the same time in the same checkout (another {@code mvn} recompiling the module) deletes
 * and rewrites those directories, and the child then fails with {@code ClassNotFoundException} — this
 * happened. Jars, including a surefire manifest-only jar whose {@code Class-Path} lists the real
 * entries, are passed through unchanged.
 */
final class ChildClassPath {

    private static final int ATTEMPTS = 10;
    private static String snapshot;

    private ChildClassPath() {}

    /** The child's class path; the first call copies the class directories. */
    static synchronized String get() {
        if (snapshot == null) {
            snapshot = build(System.getProperty("java.class.path"));
        }
        return snapshot;
    }

    private static String build(String classPath) {
        try {
            Path root = Files.createTempDirectory("errand-crash-cp-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteQuietly(root), "errand-crash-cp-cleanup"));
            List<String> entries = new ArrayList<>();
            int index = 0;
            for (String entry : classPath.split(File.pathSeparator)) {
                Path path = Path.of(entry);
                if (!entry.isEmpty() && Files.isDirectory(path)) {
                    Path copy = root.resolve(index++ + "-" + path.getFileName());
                    copyStable(path, copy);
                    entries.add(copy.toString());
                } else {
                    entries.add(entry);
                }
            }
            String result = String.join(File.pathSeparator, entries);
            if (!containsWorkerMain(result)) {
                throw new IllegalStateException("No class path entry holds " + CrashWorkerMain.class.getName()
                        + " after copying the class directories of " + classPath);
            }
            System.out.println("[crash] child class path: " + entries.size() + " entries, " + index
                    + " class directories copied under " + root);
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not copy the class directories for the crash child", e);
        }
    }

    /** Copies a directory, again if its listing changed meanwhile (a build was rewriting it). */
    private static void copyStable(Path source, Path target) throws IOException {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            List<String> before = listing(source);
            deleteQuietly(target);
            try {
                copyTree(source, target);
                // Wait a moment: a compiler writing the directory would have changed it by then.
                pause();
                if (!before.isEmpty() && before.equals(listing(source)) && before.equals(listing(target))) {
                    return;
                }
            } catch (IOException | UncheckedIOException e) {
                // A file vanished while it was copied; try again.
            }
            pause();
        }
        throw new IOException("The class directory " + source + " kept changing while it was copied;"
                + " is another build rewriting it?");
    }

    private static void copyTree(Path source, Path target) throws IOException {
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path destination = target.resolve(source.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(destination);
                } else {
                    Files.copy(path, destination, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static List<String> listing(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            return paths.filter(Files::isRegularFile)
                    .map(path -> directory.relativize(path) + ":" + size(path))
                    .sorted()
                    .toList();
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean containsWorkerMain(String classPath) {
        String file = CrashWorkerMain.class.getName().replace('.', '/') + ".class";
        boolean anyDirectory = false;
        for (String entry : classPath.split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (Files.isDirectory(path)) {
                anyDirectory = true;
                if (Files.isRegularFile(path.resolve(file))) {
                    return true;
                }
            }
        }
        // Without class directories the class comes from a jar (or a manifest-only jar's Class-Path).
        return !anyDirectory;
    }

    private static void pause() {
        try {
            Thread.sleep(200); // the point: a directory unchanged this long is not being written
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while copying the class path", e);
        }
    }

    private static void deleteQuietly(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // Best effort: it is a temporary directory.
        }
    }
}
