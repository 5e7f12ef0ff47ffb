package dev.errand.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

    /** The capabilities: each holds its logic, its SQL and its admin implementation in one internal package. */
    private static final List<String> CAPABILITIES =
            List.of("workflow", "schedule", "event", "cluster", "process", "history");

    /**
     * The only uses of one capability by another, each with its reason. Anything else a capability needs
     * comes from the shared packages ({@link #SHARED}).
     */
    private static final Map<String, Map<String, String>> CAPABILITY_EXCEPTIONS = Map.of(
            "workflow",
            Map.of("event", "a workflow step or a batch's task may wait for events: EventGate admits it at enqueue"),
            "process",
            Map.of(
                    "workflow",
                    "a process's turns are Errand batches: WorkflowStore writes them and the workflow"
                            + " Finisher fires their callbacks"));

    /**
     * What every capability may use: the task table and transactions ({@code store}), the background
     * duties' host and health ({@code runtime}), the pure decision of an attempt's end ({@code outcome}),
     * the registered kinds ({@code engine.Kinds}), turning requests into rows ({@code enqueue}) and
     * waking pollers ({@code wakeup}).
     */
    private static final List<String> SHARED = List.of("store", "runtime", "outcome", "engine", "enqueue", "wakeup");

    @Test
    void aCapabilityUsesNoOtherCapabilityButTheNamedExceptions() {
        for (String capability : CAPABILITIES) {
            List<String> others = new ArrayList<>();
            for (String other : CAPABILITIES) {
                if (!other.equals(capability)
                        && !CAPABILITY_EXCEPTIONS
                                .getOrDefault(capability, Map.of())
                                .containsKey(other)) {
                    others.add("dev.errand.internal." + other + "..");
                }
            }
            ArchRule rule = noClasses()
                    .that()
                    .resideInAPackage("dev.errand.internal." + capability + "..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(others.toArray(String[]::new))
                    .because("a capability's code stands beside its own logic; the exceptions are named in"
                            + " CAPABILITY_EXCEPTIONS with their reasons");
            rule.check(ERRAND);
        }
    }

    @Test
    void aCapabilityUsesOnlyTheSharedInternals() {
        for (String capability : CAPABILITIES) {
            List<String> allowed = new ArrayList<>();
            allowed.add("dev.errand.internal." + capability + "..");
            SHARED.forEach(shared -> allowed.add("dev.errand.internal." + shared + ".."));
            CAPABILITY_EXCEPTIONS
                    .getOrDefault(capability, Map.of())
                    .keySet()
                    .forEach(other -> allowed.add("dev.errand.internal." + other + ".."));
            ArchRule rule = noClasses()
                    .that()
                    .resideInAPackage("dev.errand.internal." + capability + "..")
                    .should()
                    .dependOnClassesThat(com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage(
                                    "dev.errand.internal..")
                            .and(com.tngtech.archunit.base.DescribedPredicate.not(
                                    com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage(
                                            allowed.toArray(String[]::new)))))
                    .because("a capability may use the store, the runtime, outcome and the shared plumbing, not"
                            + " the admin or the node assembly");
            rule.check(ERRAND);
        }
    }
}
