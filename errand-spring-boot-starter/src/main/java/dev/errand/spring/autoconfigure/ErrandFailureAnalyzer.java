package dev.errand.spring.autoconfigure;

import dev.errand.spring.ErrandConfigurationException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Prints an {@link ErrandConfigurationException} as Spring Boot's "Description / Action" report. */
class ErrandFailureAnalyzer extends AbstractFailureAnalyzer<ErrandConfigurationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ErrandConfigurationException cause) {
        return new FailureAnalysis(cause.description(), cause.action(), cause);
    }
}
