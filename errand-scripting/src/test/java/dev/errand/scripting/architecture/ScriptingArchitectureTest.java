package dev.errand.scripting.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Scripting is a user of Errand like any application: it reaches the core through its public API only, its API and
 * internals work without Spring or the console, and its packages have no cycle.
 */
class ScriptingArchitectureTest {

    private static final JavaClasses SCRIPTING = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.errand.scripting");

    @Test
    void scriptingNeverUsesTheCoresInternals() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.errand.internal..")
                .because("scripting must work through the core's public API")
                .check(SCRIPTING);
    }

    @Test
    void theApiAndInternalsNeedNeitherSpringNorTheConsole() {
        noClasses()
                .that()
                .resideInAnyPackage("dev.errand.scripting", "dev.errand.scripting.internal")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.springframework..", "dev.errand.console..", "dev.errand.spring..")
                .because("plain-Java applications use scripting without Spring")
                .check(SCRIPTING);
    }

    @Test
    void thePackagesHaveNoCycle() {
        slices().matching("dev.errand.scripting.(*)..")
                .should()
                .beFreeOfCycles()
                .check(SCRIPTING);
    }
}
