package dev.errand.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the console ships: small, self-contained, and with no way in its scripts to turn text into HTML or code.
 */
class ConsoleAssetsTest {

    private static final Path ROOT = Path.of("src/main/resources/META-INF/errand-console");

    /** Every way a script could parse a string as HTML or run it as code. */
    private static final Pattern HTML_OR_CODE = Pattern.compile(
            "innerHTML|outerHTML|insertAdjacentHTML|document\\.write|\\beval\\s*\\(|new\\s+Function|DOMParser"
                    + "|createContextualFragment|setTimeout\\s*\\(\\s*['\"`]|setInterval\\s*\\(\\s*['\"`]|srcdoc"
                    + "|javascript:");

    private static List<Path> files() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT)) {
            return files.filter(Files::isRegularFile).toList();
        }
    }

    @Test
    void theAssetsStayUnder300Kilobytes() throws IOException {
        long bytes = 0;
        for (Path file : files()) {
            bytes += Files.size(file);
        }
        assertThat(bytes).isLessThan(300 * 1024);
    }

    @Test
    void noScriptParsesHtmlOrRunsStringsAsCode() throws IOException {
        for (Path file : files()) {
            if (file.toString().endsWith(".js")) {
                String text = Files.readString(file, StandardCharsets.UTF_8);
                assertThat(HTML_OR_CODE.matcher(text).find())
                        .as(file + " must build elements through dom.js, never from HTML or code in strings")
                        .isFalse();
            }
        }
    }

    @Test
    void thePageLoadsNothingFromOutsideAndHasNoInlineScriptOrStyle() throws IOException {
        String page = Files.readString(ROOT.resolve("index.html"), StandardCharsets.UTF_8);
        assertThat(page).doesNotContain("http://", "https://", "//cdn", "style=", " on");
        assertThat(Pattern.compile("<script(?![^>]*\\bsrc=)").matcher(page).find())
                .isFalse();
        assertThat(page).doesNotContain("<style");
        for (Path file : files()) {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            assertThat(text)
                    .as(file.toString())
                    .doesNotContainPattern("(?i)(src|href|url)\\s*[=(:]\\s*['\"]?https?://");
        }
    }
}
