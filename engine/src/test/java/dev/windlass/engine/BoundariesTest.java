package dev.windlass.engine;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.windlass.policy.plan.EventLine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Which module may reach what, checked on the compiled classes of every Windlass module the engine is built from (the
 * purity of policy-eval is its own PurityTest). Each rule names the boundary a newcomer would otherwise learn by
 * breaking it.
 */
class BoundariesTest {

    private static JavaClasses windlass;

    @BeforeAll static void load() {
        windlass = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.windlass");
    }

    @Test void clustersAreReachedByTheApplierAndTheEnginesEdgesOnly() {
        ArchRule rule = noClasses().that().resideInAnyPackage("dev.windlass.policy..", "dev.windlass.git..", "dev.windlass.githost..",
                        "dev.windlass.dashboard..", "dev.windlass.render..", "dev.windlass.engine.status..", "dev.windlass.engine.review..")
                .should().dependOnClassesThat().resideInAnyPackage("io.fabric8.kubernetes.client..", "dev.windlass.applier..")
                .because("a cluster is reached through the applier; deciding, rendering, Git and what people read never call one");
        rule.check(windlass);
    }

    @Test void gitIsReachedByGitSourceOnly() {
        ArchRule rule = noClasses().that().resideOutsideOfPackages("dev.windlass.git..", "dev.windlass.engine..", "dev.windlass.bench..")
                .should().dependOnClassesThat().resideInAnyPackage("org.eclipse.jgit..")
                .because("the config repository and the status branch are read and written by git-source");
        rule.check(windlass);
    }

    @Test void theDashboardReadsStateAndNeverTheEngine() {
        ArchRule rule = noClasses().that().resideInAPackage("dev.windlass.dashboard..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.windlass.engine..", "dev.windlass.applier..", "dev.windlass.git..",
                        "dev.windlass.sandbox..")
                .because("the dashboard shows the view the engine publishes after each pass, and writes nothing");
        rule.check(windlass);
    }

    @Test void nothingThatAppliesDecidesOrRendersKnowsTheSandbox() {
        ArchRule rule = noClasses().that().resideInAnyPackage("dev.windlass.applier..", "dev.windlass.policy..", "dev.windlass.git..",
                        "dev.windlass.render..", "dev.windlass.dashboard..", "dev.windlass.engine.status..", "dev.windlass.engine.review..")
                .should().dependOnClassesThat().resideInAPackage("dev.windlass.sandbox..")
                .because("the sandbox's clusters are reached like real ones: only the engine's wiring and the demo build them");
        rule.check(windlass);
    }

    @Test void theStatusFormatIsWrittenAndReadByTheStatusFilesOnly() {
        ArchRule rule = noClasses().that().resideOutsideOfPackages("dev.windlass.engine.status..", "dev.windlass.engine.cli..")
                .should().dependOnClassesThat().resideInAPackage("dev.windlass.engine.status.v1..")
                .because("the rest of the engine works with the domain; the format's records exist only at the file's edge");
        rule.check(windlass);
    }

    @Test void theWordsOfAnEventArePrintedAndNeverRead() {
        ArchRule rule = noClasses().that().doNotHaveFullyQualifiedName(EventLine.class.getName())
                .and().doNotHaveFullyQualifiedName("dev.windlass.engine.status.CommitMessage")
                .and().doNotHaveFullyQualifiedName("dev.windlass.engine.schedule.Daemon")
                .and().doNotHaveFullyQualifiedName("dev.windlass.engine.demo.Demo")
                .should().dependOnClassesThat().haveFullyQualifiedName(EventLine.class.getName())
                .because("an event's line is for people (the status commit, the log, the demo); a decision reads the event's record");
        rule.check(windlass);
    }
}
