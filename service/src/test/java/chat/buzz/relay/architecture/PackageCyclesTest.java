package chat.buzz.relay.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Arrows between feature packages point one way. A cycle means two packages can only be
 * understood, changed and tested together, so the build refuses it.
 */
class PackageCyclesTest {
    private static JavaClasses production;

    @BeforeAll
    static void importProductionClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("chat.buzz");
    }

    @Test
    void relayFeaturePackagesAreFreeOfCycles() {
        slices().assignedFrom(new RelayPackages()).should().beFreeOfCycles().check(production);
    }

    @Test
    void clientPackagesAreFreeOfCycles() {
        slices().matching("chat.buzz.client.(**)")
                .should()
                .beFreeOfCycles()
                .allowEmptyShould(false)
                .check(production);
    }

    @Test
    void protocolDependsOnNeitherDropwizardNorTheRelayNorTheClient() {
        noClasses()
                .that()
                .resideInAPackage("chat.buzz.protocol..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.dropwizard..",
                        "jakarta.ws.rs..",
                        "org.eclipse.jetty..",
                        "chat.buzz.relay..",
                        "chat.buzz.client..")
                .check(production);
    }

    @Test
    void clientDoesNotDependOnTheRelay() {
        noClasses()
                .that()
                .resideInAPackage("chat.buzz.client..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("chat.buzz.relay..", "io.dropwizard..")
                .check(production);
    }

    /**
     * One slice per feature package of the relay; the application and its configuration, which
     * sit in the root package, are one slice each, so a feature that reaches back into the
     * configuration root shows up as a cycle too.
     */
    private static final class RelayPackages implements SliceAssignment {
        private static final String ROOT = "chat.buzz.relay";

        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String pkg = javaClass.getPackageName();
            if (pkg.equals(ROOT)) {
                return SliceIdentifier.of(
                        javaClass.getName().substring(ROOT.length() + 1).replaceAll("\\$.*", ""));
            }
            if (!pkg.startsWith(ROOT + ".")) {
                return SliceIdentifier.ignore();
            }
            String feature = pkg.substring(ROOT.length() + 1);
            int dot = feature.indexOf('.');
            return SliceIdentifier.of(dot < 0 ? feature : feature.substring(0, dot));
        }

        @Override
        public String getDescription() {
            return "feature packages of " + ROOT;
        }
    }
}
