package dev.errand.console.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The console is a user of Errand like any other application: it reaches the core through its public API only
 * (what it needs beyond that is listed in docs/CONSOLE-CORE-API.md, not taken from the internals), its access
 * rules do not depend on its routes, and its packages have no cycle.
 */
class ConsoleArchitectureTest {

    private static final JavaClasses CONSOLE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.errand.console");

    @Test
    void theConsoleNeverUsesTheCoresInternals() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.errand.internal..")
                .because("the console must work through the core's public admin API")
                .check(CONSOLE);
    }

    @Test
    void accessAndHeadersDoNotDependOnTheApi() {
        noClasses()
                .that()
                .resideInAnyPackage("dev.errand.console.access..", "dev.errand.console.web..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.errand.console.api..", "dev.errand.console.autoconfigure..")
                .check(CONSOLE);
    }

    @Test
    void theConsolesPackagesHaveNoCycle() {
        slices().matching("dev.errand.console.(*)..").should().beFreeOfCycles().check(CONSOLE);
    }
}
