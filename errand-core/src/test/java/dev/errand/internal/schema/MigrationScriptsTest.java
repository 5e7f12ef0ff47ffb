package dev.errand.internal.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The list Flyway is given is exactly the scripts on the class path, in version order, so that a new migration
 * cannot be forgotten in it (Flyway would silently skip it).
 */
class MigrationScriptsTest {

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mysql", "h2"})
    void theListIsEveryScriptOfTheFolderInVersionOrder(String dialectFolder) throws Exception {
        List<String> onClassPath = scriptsOnClassPath(MigrationScripts.ROOT + dialectFolder);
        assertThat(MigrationScripts.NAMES).containsExactlyInAnyOrderElementsOf(onClassPath);
        List<String> byVersion = new ArrayList<>(MigrationScripts.NAMES);
        byVersion.sort(Comparator.comparingInt(MigrationScriptsTest::version));
        assertThat(MigrationScripts.NAMES).as("in version order").containsExactlyElementsOf(byVersion);
        for (String path : MigrationScripts.paths(dialectFolder)) {
            assertThat(getClass().getClassLoader().getResource(path)).as(path).isNotNull();
        }
    }

    private static int version(String name) {
        return Integer.parseInt(name.substring(1, name.indexOf("__")));
    }

    private static List<String> scriptsOnClassPath(String folder) throws IOException, URISyntaxException {
        List<String> names = new ArrayList<>();
        for (URL url :
                Collections.list(MigrationScriptsTest.class.getClassLoader().getResources(folder))) {
            if ("jar".equals(url.getProtocol())) {
                try (JarFile jar = ((JarURLConnection) url.openConnection()).getJarFile()) {
                    jar.stream()
                            .map(entry -> entry.getName())
                            .filter(name -> name.startsWith(folder + "/") && name.endsWith(".sql"))
                            .map(name -> name.substring(folder.length() + 1))
                            .filter(name -> !name.contains("/"))
                            .forEach(names::add);
                }
            } else {
                try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
                    files.map(file -> file.getFileName().toString())
                            .filter(name -> name.endsWith(".sql"))
                            .forEach(names::add);
                }
            }
        }
        assertThat(names).as("scripts found under " + folder).isNotEmpty();
        return names;
    }
}
