package dev.errand.jpa.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The layering of errand-jpa, as in the core: applications use {@code dev.errand.jpa} and its concept
 * packages, plug in through {@code dev.errand.jpa.spi}, and never see {@code dev.errand.jpa.internal}; only
 * the composition root (package {@code dev.errand.jpa} itself) wires the internals; and nothing here reaches
 * into errand-core's internals, which may change in any release.
 */
class JpaArchitectureTest {

    private static final JavaClasses JPA = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.errand.jpa");

    @Test
    void noPackageCycles() {
        slices().matching("dev.errand.jpa.(**)").should().beFreeOfCycles().check(JPA);
    }

    @Test
    void nothingUsesErrandCoresInternals() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.errand.internal..")
                .because("errand-core's internals are not API; use dev.errand.retry, dev.errand.spi and the like")
                .check(JPA);
    }

    @Test
    void apiAndSpiNeverReachIntoTheInternals() {
        noClasses()
                .that()
                .resideOutsideOfPackages("dev.errand.jpa", "dev.errand.jpa.internal..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.errand.jpa.internal..")
                .because("only the composition root (EntityQueues, EntityQueuesBuilder, EntityQueue) wires them")
                .check(JPA);
    }

    @Test
    void theInternalsAndTheApiNeverDependOnTheCompositionRoot() {
        noClasses()
                .that()
                .resideInAnyPackage(
                        "dev.errand.jpa.internal..",
                        "dev.errand.jpa.state..",
                        "dev.errand.jpa.queue..",
                        "dev.errand.jpa.spi..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.errand.jpa")
                .check(JPA);
    }

    @Test
    void onlyTheSpringPackagesUseSpring() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.errand.jpa.spring..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.springframework..")
                .because("Spring is optional: plain JPA applications do not have it")
                .check(JPA);
    }
}
