package dev.errand.spring.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The starter is a user of the core like any other: it reaches Errand through its API and SPI only, so
 * that the core's internals can change without breaking it; and its own packages have no cycle.
 */
class StarterArchitectureTest {

    private static final JavaClasses STARTER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.errand.spring");

    @Test
    void theStarterNeverUsesTheCoresInternals() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.errand.internal..")
                .because("the starter must work through the core's public API and SPI")
                .check(STARTER);
    }

    @Test
    void theStartersPackagesHaveNoCycle() {
        slices().matching("dev.errand.spring.(*)..").should().beFreeOfCycles().check(STARTER);
    }
}
