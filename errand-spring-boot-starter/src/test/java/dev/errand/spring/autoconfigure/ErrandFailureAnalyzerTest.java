package dev.errand.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.spring.ErrandConfigurationException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Start-up errors of the starter print as Spring Boot's "Description / Action" report. */
class ErrandFailureAnalyzerTest {

    @Test
    void reportsTheDescriptionAndTheActionOfANestedConfigurationError() {
        FailureAnalysis analysis = new ErrandFailureAnalyzer()
                .analyze(new BeanCreationException(
                        "errandTasks",
                        "could not create",
                        new ErrandConfigurationException("Task kind 'a' is claimed twice.", "Rename one.")));

        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription()).isEqualTo("Task kind 'a' is claimed twice.");
        assertThat(analysis.getAction()).isEqualTo("Rename one.");
    }

    @Test
    void isRegisteredWithSpringBoot() throws Exception {
        boolean registered = false;
        for (URL url : Collections.list(getClass().getClassLoader().getResources("META-INF/spring.factories"))) {
            try (InputStream in = url.openStream()) {
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                registered |= text.contains("org.springframework.boot.diagnostics.FailureAnalyzer=")
                        && text.contains(ErrandFailureAnalyzer.class.getName());
            }
        }
        assertThat(registered).isTrue();
    }
}
