package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.policy.state.ClusterStep;
import dev.windlass.policy.state.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Suspension: nothing covered is applied, pruned or corrected while it holds; resuming applies what piled up. Run on the
 * sandbox (SuspensionE2E) and on real control planes (SuspensionIT).
 */
abstract class SuspensionContract {
    static final Path EXAMPLES = Path.of("..", "examples-repo");
    static final String WEB_APP = "apps/web/app.yaml";
    static final List<String> CLUSTERS = List.of("eu-1", "eu-2", "us-1");

    @TempDir Path dir;

    /** Real control planes, or the sandbox. */
    abstract boolean real();

    TestFleet examples(String message) throws Exception {
        TestFleet fleet = new TestFleet(dir, real());
        fleet.push(message, TestFleet.examples(fleet));
        fleet.settle();
        return fleet;
    }

    static String suspended(String appYaml) { return appYaml.replace("spec:\n", "spec:\n  suspend: true\n"); }

    /**
     * Self-healing a hand edit takes the fields back from whoever changed them: with server-side apply that is a forced
     * apply (syncPolicy.force), or the API server reports a conflict instead.
     */
    static String forced(String appYaml) { return appYaml.replace("selfHeal: true\n", "selfHeal: true\n    force: true\n"); }

    static int replicas(TestFleet fleet, String cluster) {
        try (KubernetesClient k = fleet.client(cluster)) {
            return k.apps().deployments().inNamespace("web").withName("web").get().getSpec().getReplicas();
        }
    }

    static void resetWrites(TestFleet fleet) { CLUSTERS.forEach(fleet.backend::resetWrites); }

    /** What the engine wrote to the clusters since {@link #resetWrites}: only web could be written to here. */
    static long writes(TestFleet fleet) { return CLUSTERS.stream().mapToLong(fleet.backend::writes).sum(); }

    static String commits(TestFleet fleet) throws Exception {
        return String.join("\n---\n", fleet.statusLog().stream().map(RevCommit::getFullMessage).toList());
    }

    @Test
    void aSuspendedAppGetsNoWritesAndResumesWithExactlyWhatPiledUp() throws Exception {
        try (TestFleet fleet = examples("fleet")) {
            String app = forced(ReconcileLoopE2E.read(EXAMPLES.resolve(WEB_APP)));
            fleet.push("suspend web while we debug", c -> c.write(WEB_APP, suspended(app)));
            fleet.pass();
            Condition condition = RolloutContract.web(fleet).condition("Suspended");
            assertEquals(Condition.Status.True, condition.status(), condition.toString());
            assertEquals("Dev <dev@example.com>", condition.by(), "who suspended it: the commit's author");

            try (KubernetesClient k = fleet.client("eu-1")) {
                k.apps().deployments().inNamespace("web").withName("web").edit(d -> {
                    d.getSpec().setReplicas(7);
                    return d;
                });
            }
            resetWrites(fleet);
            fleet.passLater();
            assertTrue(fleet.statusFile("status/apps/web.yaml").contains("Deployment web/web: spec.replicas"), "observation goes on: drift is reported");
            fleet.push("web 1.5.0", c -> c.write(RolloutContract.DEPLOYMENT, RolloutContract.web("1.5.0")));
            PassReport held = fleet.passLater();
            assertEquals(0, writes(fleet), "no apply, no drift correction");
            assertEquals("1.4.2", RolloutContract.image(fleet, "eu-1"));
            assertEquals(7, replicas(fleet, "eu-1"), "the hand edit stays while suspended");
            assertTrue(held.plan().held().stream().allMatch(h -> !h.action().app().equals("web") || h.reason().text().startsWith("Application/web suspended")),
                    held.plan().held().toString());
            assertTrue(held.plan().held().stream().anyMatch(h -> h.action().app().equals("web")), "the plan still shows what is held");

            fleet.push("resume web", c -> c.write(WEB_APP, app.replace("  suspend: true\n", "")));
            PassReport resumed = fleet.pass();
            assertEquals(List.of("Deployment web/web"), resumed.applied().results().stream().filter(r -> r.action().app().equals("web"))
                    .map(r -> r.action().object().toString()).distinct().toList(), "exactly the accumulated change");
            assertEquals("1.5.0", RolloutContract.image(fleet, "eu-1"));
            assertEquals(2, replicas(fleet, "eu-1"), "the drift is corrected on resume");
            String story = commits(fleet);
            assertTrue(story.contains("web suspended: on eu-1, eu-2, us-1 by Application/web suspended"), story);
            assertTrue(story.contains("web resumed") && story.contains("Windlass-Event: Suspension"), story);
        }
    }

    @Test
    void oneSuspendedClusterOfThreeGetsUpdatesOnResume() throws Exception {
        try (TestFleet fleet = examples("fleet")) {
            String us1 = fleet.backend.real() ? fleet.connectedHere(ReconcileLoopE2E.read(EXAMPLES.resolve("clusters/us-1.yaml")))
                    : ReconcileLoopE2E.read(EXAMPLES.resolve("clusters/us-1.yaml"));
            fleet.push("freeze us-1 until cut-over", c -> c.write("clusters/us-1.yaml", us1.replace("spec:\n", "spec:\n  suspend: true\n")));
            fleet.push("web 1.5.0", c -> c.write(RolloutContract.DEPLOYMENT, RolloutContract.web("1.5.0")));
            fleet.pass();
            assertEquals("1.5.0", RolloutContract.image(fleet, "eu-1"));
            assertEquals("1.5.0", RolloutContract.image(fleet, "eu-2"));
            assertEquals("1.4.2", RolloutContract.image(fleet, "us-1"), "the suspended cluster gets nothing");
            assertTrue(fleet.statusFile("status/clusters/us-1.yaml").contains("type: Suspended"));
            fleet.push("cut-over done", c -> c.write("clusters/us-1.yaml", us1));
            fleet.pass();
            assertEquals("1.5.0", RolloutContract.image(fleet, "us-1"), "updated on resume");
            assertTrue(commits(fleet).contains("cluster us-1 resumed"));
        }
    }

    @Test
    void aCronFreezeHoldsTheNextWaveAndStopsItsClocks() throws Exception {
        try (TestFleet fleet = new TestFleet(dir, real())) {
            fleet.push("fleet", c -> TestFleet.examples(fleet).apply(c).write("policies/rollout.yaml", RolloutContract.policy("Pause")));
            fleet.settle();
            String slow = RolloutContract.policy("Pause").replace("minSuccessTime: 30s", "minSuccessTime: 10m").replace("progressDeadline: 2m", "progressDeadline: 20m");
            fleet.push("a nightly freeze, and a longer soak", c -> c.write("policies/rollout.yaml", slow)
                    .write("policies/freeze.yaml", """
                            apiVersion: windlass.dev/v1alpha1
                            kind: Freeze
                            metadata: {name: maintenance}
                            spec:
                              schedule: "0 0 10 * * ?"
                              duration: 30m
                              timeZone: UTC
                              reason: nightly storage maintenance
                            """));
            fleet.settle();
            Instant nine55 = Instant.parse("2026-11-22T09:55:00Z");
            fleet.clock.advance(Duration.between(fleet.clock.instant(), nine55));
            fleet.push("web 1.5.0", c -> c.write(RolloutContract.DEPLOYMENT, RolloutContract.web("1.5.0")));
            fleet.pass();
            assertEquals("1.5.0", RolloutContract.image(fleet, "eu-1"), "before the window: wave 1 starts");
            Instant eu2Started = null;
            List<List<String>> progressing = new ArrayList<>();
            while (fleet.clock.instant().isBefore(Instant.parse("2026-11-22T10:50:00Z"))) {
                PassReport r = RolloutContract.step(fleet, Duration.ofMinutes(1), progressing);
                Instant now = fleet.clock.instant();
                ClusterStep eu1 = RolloutContract.web(fleet).rollout().step("eu-1");
                if (now.isAfter(Instant.parse("2026-11-22T10:00:00Z")) && now.isBefore(Instant.parse("2026-11-22T10:30:00Z"))) {
                    assertEquals(ClusterStep.State.Progressing, eu1.state(), "frozen at " + now + ": no success, and no timeout at 10:15");
                    assertTrue(r.plan().held().stream().anyMatch(h -> h.action().cluster().equals("eu-2")
                            && h.reason().text().startsWith("Freeze/maintenance until 2026-11-22T10:30Z")), r.plan().held().toString());
                }
                if (eu2Started == null && RolloutContract.image(fleet, "eu-2").equals("1.5.0")) eu2Started = now;
            }
            assertTrue(eu2Started != null && !eu2Started.isBefore(Instant.parse("2026-11-22T10:35:00Z")),
                    "eu-1 soaks 10m of unfrozen time (09:55-10:00, then 10:30-10:35): wave 2 starts at " + eu2Started);
        }
    }

    @Test
    void anOpenEndedFreezeHoldsUntilACommitRemovesIt() throws Exception {
        try (TestFleet fleet = examples("fleet")) {
            fleet.push("freeze the frontend", c -> c.write("policies/freeze.yaml", """
                    apiVersion: windlass.dev/v1alpha1
                    kind: Freeze
                    metadata: {name: black-friday}
                    spec:
                      selector: {matchLabels: {tier: frontend}}
                      reason: no changes during the sale
                    """));
            fleet.push("web 1.5.0", c -> c.write(RolloutContract.DEPLOYMENT, RolloutContract.web("1.5.0")));
            PassReport frozen = fleet.pass();
            assertEquals("1.4.2", RolloutContract.image(fleet, "eu-1"));
            assertTrue(frozen.plan().held().stream().allMatch(h -> h.reason().text().equals(
                    "Freeze/black-friday until the Freeze is removed: no changes during the sale")), frozen.plan().held().toString());
            fleet.push("the sale is over", c -> c.delete("policies/freeze.yaml"));
            fleet.pass();
            assertEquals("1.5.0", RolloutContract.image(fleet, "eu-1"));
            assertEquals("1.5.0", RolloutContract.image(fleet, "us-1"));
        }
    }

    @Test
    void aFreezeFileThatCannotBeReadHoldsEverythingInsteadOfVanishing() throws Exception {
        try (TestFleet fleet = examples("fleet")) {
            String freeze = "apiVersion: windlass.dev/v1alpha1\nkind: Freeze\nmetadata: {name: sale}\nspec:\n  selector: {matchLabels: {tier: frontend}}\n";
            fleet.push("freeze the frontend", c -> c.write("policies/freeze.yaml", freeze));
            fleet.pass();
            fleet.push("a typo in the freeze, and a web release", c -> c.write("policies/freeze.yaml", freeze + "  reason: [unclosed\n")
                    .write(RolloutContract.DEPLOYMENT, RolloutContract.web("1.5.0")));
            PassReport r = fleet.pass();
            assertEquals("1.4.2", RolloutContract.image(fleet, "eu-1"), "the freeze did not vanish with its file");
            assertTrue(r.plan().held().stream().allMatch(h -> h.reason().text().equals(
                    "policies/freeze.yaml held a Freeze or RolloutPolicy and cannot be read; nothing is applied until it is fixed")), r.plan().held().toString());
            assertTrue(r.plan().diagnostics().stream().anyMatch(d -> d.toString().startsWith("policies/freeze.yaml:")), "the YAML error is shown with its place");
            fleet.push("sale over", c -> c.delete("policies/freeze.yaml"));
            fleet.pass();
            assertEquals("1.5.0", RolloutContract.image(fleet, "eu-1"));
        }
    }
}
