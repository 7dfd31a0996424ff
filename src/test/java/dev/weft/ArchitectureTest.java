package dev.weft;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The package graph of docs/ARCHITECTURE.md, enforced on the main classes. Every rule is built for a root package, so
 * the same rules also run against the deliberately broken classes under {@code dev.weft.archfixture} (test sources
 * only, hence never part of the main import), proving that each of them reports a violation when one exists.
 */
class ArchitectureTest {
    private static final String ROOT = "dev.weft";
    private static final String FIXTURE = "dev.weft.archfixture";

    private static JavaClasses main;
    private static JavaClasses fixture;

    @BeforeAll
    static void importClasses() {
        main = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
        fixture = new ClassFileImporter().importPackages(FIXTURE);
    }

    /** No two packages depend on each other, directly or through others (sub-packages count as packages of their own). */
    static ArchRule noPackageCycles(String root) {
        return slices().matching(root + ".(**)").should().beFreeOfCycles();
    }

    /** No two top-level areas ({@code store}, {@code track} with its sub-packages, …) depend on each other. */
    static ArchRule noAreaCycles(String root) {
        return slices().matching(root + ".(*)..").should().beFreeOfCycles();
    }

    /** {@code node} wires everything; only the launcher in the root package starts it. */
    static ArchRule nothingDependsOnNode(String root) {
        return noClasses()
                .that()
                .resideOutsideOfPackages(root + ".node..", root)
                .should()
                .dependOnClassesThat()
                .resideInAPackage(root + ".node..");
    }

    /**
     * The devnet is a plugin apart from the product: no product class, the wiring included, names it (the node finds
     * it with ServiceLoader and learns its endpoints as configuration).
     */
    static ArchRule productNeverImportsTheDevnet(String root) {
        return noClasses()
                .that()
                .resideOutsideOfPackages(root + ".devnet..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage(root + ".devnet..");
    }

    /** The product packages the devnet may never import: it must not test the product with the product's own code. */
    static final List<String> PRODUCT_FEATURES =
            List.of("route", "track", "ingest", "store", "api", "wallet", "evm", "richlist", "nft", "pipeline");

    /**
     * The devnet builds on the chain primitives only (hex, bech32, hashes, addresses, protobuf reader and writer), the
     * plugin contract ({@code runtime}) and configuration reading ({@code config}); every product feature, the node
     * clients ({@code chain.client}) and the wire models ({@code chain.model}) are off limits.
     */
    static ArchRule devnetUsesPrimitivesOnly(String root) {
        return onlyOnWeftPackages(root, new String[] {root + ".devnet.."}, new String[] {
            root + ".devnet..", root + ".chain", root + ".chain.proto..", root + ".config", root + ".runtime"
        });
    }

    /** The leaves: domain models, typed config, the typed node context and the chain's primitives and wire models. */
    static String[] leaves(String root) {
        return new String[] {
            root + ".model..",
            root + ".config..",
            root + ".runtime..",
            root + ".chain",
            root + ".chain.model..",
            root + ".chain.proto.."
        };
    }

    static ArchRule leavesDependOnLeavesOnly(String root) {
        return onlyOnWeftPackages(root, leaves(root), leaves(root));
    }

    /** SQL sits on the models: the store knows no feature, verticle or service. */
    static ArchRule storeDependsOnModelsOnly(String root) {
        return onlyOnWeftPackages(root, new String[] {root + ".store.."}, concat(leaves(root), root + ".store.."));
    }

    /**
     * The HTTP API speaks the bus contract and reads the store for indexer queries; it imports no feature (feature
     * packages contribute their own HTTP modules, which the node wires in).
     */
    static ArchRule apiDependsOnContractsOnly(String root) {
        return onlyOnWeftPackages(
                root,
                new String[] {root + ".api.."},
                concat(leaves(root), root + ".api..", root + ".bus..", root + ".store..", root + ".chain.."));
    }

    private static ArchRule onlyOnWeftPackages(String root, String[] subjects, String[] allowed) {
        DescribedPredicate<JavaClass> permitted =
                resideOutsideOfPackage(root + "..").or(resideInAnyPackage(allowed));
        return classes().that().resideInAnyPackage(subjects).should().onlyDependOnClassesThat(permitted);
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    @DisplayName("no package cycle, at package level or between top-level areas")
    void noCycles() {
        noPackageCycles(ROOT).check(main);
        noAreaCycles(ROOT).check(main);
    }

    @Test
    @DisplayName("nothing but the launcher imports node; no product class imports the devnet")
    void nodeIsTheTop() {
        nothingDependsOnNode(ROOT).check(main);
        productNeverImportsTheDevnet(ROOT).check(main);
    }

    @Test
    @DisplayName("the devnet imports chain primitives, configuration reading and the plugin contract only")
    void devnetApart() {
        devnetUsesPrimitivesOnly(ROOT).check(main);
    }

    @Test
    @DisplayName("leaves (model, config, runtime, chain primitives) depend on leaves only")
    void leaves() {
        leavesDependOnLeavesOnly(ROOT).check(main);
    }

    @Test
    @DisplayName("store depends on models, config, runtime and chain primitives only")
    void store() {
        storeDependsOnModelsOnly(ROOT).check(main);
    }

    @Test
    @DisplayName("api depends on bus, store, chain and the leaves only: no feature verticle or service")
    void api() {
        apiDependsOnContractsOnly(ROOT).check(main);
    }

    @Test
    @DisplayName("each rule reports the violations of the deliberately broken fixture packages")
    void rulesCanFail() {
        assertTrue(
                noPackageCycles(FIXTURE).evaluate(fixture).hasViolation(),
                "archfixture.a <-> archfixture.b is a cycle");
        assertTrue(
                noAreaCycles(FIXTURE).evaluate(fixture).hasViolation(), "archfixture.a <-> archfixture.b is a cycle");
        assertTrue(
                nothingDependsOnNode(FIXTURE).evaluate(fixture).hasViolation(),
                "archfixture.store imports archfixture.node");
        assertTrue(
                productNeverImportsTheDevnet(FIXTURE).evaluate(fixture).hasViolation(),
                "archfixture.api imports archfixture.devnet");
        String devnetReport = devnetUsesPrimitivesOnly(FIXTURE)
                .evaluate(fixture)
                .getFailureReport()
                .toString();
        for (String feature : PRODUCT_FEATURES) {
            assertTrue(
                    devnetReport.contains("<" + FIXTURE + "." + feature + "."),
                    "archfixture.devnet imports archfixture." + feature + ": reported");
        }
        assertTrue(
                leavesDependOnLeavesOnly(FIXTURE).evaluate(fixture).hasViolation(),
                "archfixture.config imports archfixture.store");
        assertTrue(
                storeDependsOnModelsOnly(FIXTURE).evaluate(fixture).hasViolation(),
                "archfixture.store imports archfixture.node");
        assertTrue(
                apiDependsOnContractsOnly(FIXTURE).evaluate(fixture).hasViolation(),
                "archfixture.api imports archfixture.devnet");
    }
}
