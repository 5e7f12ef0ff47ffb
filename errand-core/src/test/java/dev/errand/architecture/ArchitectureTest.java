package dev.errand.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The line between API, SPI and internals, and no package cycles. Applications use {@code dev.errand}
 * and its concept packages, plug in through {@code dev.errand.spi}, and never see
 * {@code dev.errand.internal}. Only the composition root (the classes of package {@code dev.errand}
 * itself) reaches into the internals, and nothing depends on the root.
 */
class ArchitectureTest {

    private static final JavaClasses ERRAND = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.errand");

    @Test
    void noPackageDependsOnAPackageThatDependsOnIt() {
        ArchRule rule = slices().matching("dev.(**)").should().beFreeOfCycles();
        rule.check(ERRAND);
    }

    @Test
    void apiAndSpiNeverReachIntoTheInternals() {
        ArchRule rule = noClasses()
                .that()
                .resideOutsideOfPackages("dev.errand", "dev.errand.internal..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.errand.internal..")
                .because("only the composition root (Errand, ErrandBuilder, ClaimStrategies) wires the internals");
        rule.check(ERRAND);
    }

    @Test
    void nothingDependsOnTheCompositionRoot() {
        ArchRule rule = noClasses()
                .that()
                .resideOutsideOfPackage("dev.errand")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.errand")
                .because("the root wires everything; a dependency back on it would make a cycle");
        rule.check(ERRAND);
    }

    @Test
    void theSpiStandsOnItsOwn() {
        ArchRule rule = noClasses()
                .that()
                .resideInAPackage("dev.errand.spi..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.errand",
                        "dev.errand.internal..",
                        "dev.errand.admin..",
                        "dev.errand.enqueue..",
                        "dev.errand.config..")
                .because("what applications implement must not drag in the rest of Errand");
        rule.check(ERRAND);
    }
}
