package dev.errand.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * ARCHITECTURE.md's map of packages against the packages of errand-core's code: every API, SPI and internal
 * package has a row, and no row names a package that does not exist.
 */
class ArchitectureDocTest {

    private static final Path DOC = Path.of("..", "docs", "ARCHITECTURE.md");
    private static final Path SOURCES = Path.of("src", "main", "java");
    private static final Pattern ROW = Pattern.compile("^\\|[^|]*\\| `(dev\\.errand(?:\\.[a-z]+)*)` \\|");

    @Test
    void thePackageTableListsExactlyThePackagesOfTheCode() throws IOException {
        assertThat(documented()).isEqualTo(inTheCode());
    }

    /** The packages named in the second column of the table under "The map of packages". */
    private static Set<String> documented() throws IOException {
        String doc = Files.readString(DOC);
        int start = doc.indexOf("## The map of packages");
        assertThat(start)
                .as("ARCHITECTURE.md has a section 'The map of packages'")
                .isNotNegative();
        int end = doc.indexOf("\n## ", start + 1);
        Set<String> packages = new TreeSet<>();
        for (String line : doc.substring(start, end < 0 ? doc.length() : end).split("\n")) {
            Matcher row = ROW.matcher(line);
            if (row.find()) {
                packages.add(row.group(1));
            }
        }
        assertThat(packages).as("rows found in the package table").isNotEmpty();
        return packages;
    }

    /** Every package of errand-core's main code that holds a class. */
    private static Set<String> inTheCode() throws IOException {
        Set<String> packages = new TreeSet<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            files.filter(file -> file.toString().endsWith(".java"))
                    .filter(file -> !file.getFileName().toString().equals("package-info.java"))
                    .forEach(file -> packages.add(SOURCES.relativize(file.getParent())
                            .toString()
                            .replace(file.getFileSystem().getSeparator(), ".")));
        }
        return packages;
    }
}
