package dev.windlass.policy;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * policy-eval decides; it never reads files or the network, asks the clock, draws random numbers or starts threads. The
 * time comes in as {@code Instant now}. Checked on the compiled classes, so no spelling of a call escapes: a
 * {@code var} executor, a static import of {@code Instant.now}, a fully qualified name.
 */
class PurityTest {

    private static JavaClasses policyEval;

    @BeforeAll static void load() {
        policyEval = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.windlass.policy");
    }

    @Test void noClock() {
        ArchRule rule = noClasses().should().callMethod(java.time.Instant.class, "now")
                .orShould().callMethod(java.time.Clock.class, "systemUTC")
                .orShould().callMethod(java.time.Clock.class, "systemDefaultZone")
                .orShould().callMethod(java.time.LocalDateTime.class, "now")
                .orShould().callMethod(java.time.LocalDate.class, "now")
                .orShould().callMethod(java.time.ZonedDateTime.class, "now")
                .orShould().callMethod(java.time.OffsetDateTime.class, "now")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(System.class, "nanoTime")
                .because("the time a decision is made at is a parameter: policy-eval is pure");
        rule.check(policyEval);
    }

    @Test void noFilesNetworkOrEnvironment() {
        ArchRule rule = noClasses().should().dependOnClassesThat().resideInAnyPackage("java.nio.file..", "java.net..")
                .orShould().dependOnClassesThat().haveNameMatching("java\\.io\\.(File|RandomAccessFile|Console).*")
                .orShould().callMethod(System.class, "getenv", String.class)
                .orShould().callMethod(System.class, "getenv")
                .orShould().callMethod(System.class, "getProperty", String.class)
                .because("policy-eval reads only what it is given; files, the network and the environment are read at the edges");
        rule.check(policyEval);
    }

    @Test void noThreadsOrRandomness() {
        ArchRule rule = noClasses().should().dependOnClassesThat().haveFullyQualifiedName(Thread.class.getName())
                .orShould().dependOnClassesThat().resideInAPackage("java.util.concurrent..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName(java.util.Random.class.getName())
                .orShould().dependOnClassesThat().haveFullyQualifiedName(java.security.SecureRandom.class.getName())
                .because("a pass's decisions are one function of its inputs, the same every time");
        rule.check(policyEval);
    }

    @Test void noClusterClient() {
        ArchRule rule = noClasses().should().dependOnClassesThat().resideInAnyPackage("io.fabric8.kubernetes.client..", "org.eclipse.jgit..")
                .because("clusters and Git are reached by the applier and git-source, never by policy-eval");
        rule.check(policyEval);
    }
}
