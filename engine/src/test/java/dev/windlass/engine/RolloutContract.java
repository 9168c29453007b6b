package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.ClusterStep;
import dev.windlass.policy.state.RolloutState;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new revision of web reaching the fleet in waves (canary eu-1, then eu-2, then us-1), with an injected clock so soak
 * times and deadlines pass without waiting for them. Run on the sandbox (RolloutE2E) and on real control planes
 * (RolloutIT), where a wave that cannot succeed is a cluster whose nodes are all cordoned: the new Pods stay Pending.
 */
abstract class RolloutContract {
    static final Path EXAMPLES = Path.of("..", "examples-repo");
    static final String DEPLOYMENT = "apps/web/manifests/deployment.yaml";

    @TempDir Path dir;

    /** Real control planes, or the sandbox. */
    abstract boolean real();

    static String policy(String onFailure) {
        return """
                apiVersion: windlass.dev/v1alpha1
                kind: RolloutPolicy
                metadata: {name: prod-waves}
                spec:
                  selector: {matchLabels: {tier: frontend}}
                  type: Progressive
                  groups:
                    - {name: canary, clusterSelector: {matchLabels: {canary: "true"}}}
                    - {name: eu, clusterSelector: {matchLabels: {region: eu, canary: "false"}}}
                  unassignedClusters: LastGroup
                  maxConcurrency: 1
                  minSuccessTime: 30s
                  progressDeadline: 2m
                  maxFailures: 0
                  onFailure: %s
                """.formatted(onFailure);
    }

    static String web(String image) {
        return ReconcileLoopE2E.read(EXAMPLES.resolve(DEPLOYMENT)).replace("ghcr.io/example/web:1.4.2", "ghcr.io/example/web:" + image);
    }

    TestFleet start(String onFailure) throws Exception {
        return startIn(dir, onFailure);
    }

    /** The examples with the rollout policy, synced everywhere at web 1.4.2. */
    TestFleet startIn(Path dir, String onFailure) throws Exception {
        TestFleet fleet = new TestFleet(dir, real());
        fleet.push("fleet with waves", c -> TestFleet.examples(fleet).apply(c).write("policies/rollout.yaml", policy(onFailure)));
        fleet.settle();
        return fleet;
    }

    static String image(TestFleet fleet, String cluster) {
        try (KubernetesClient k = fleet.client(cluster)) {
            return ReconcileLoopE2E.image(k, "web", "web").replace("ghcr.io/example/web:", "");
        }
    }

    static AppStatus web(TestFleet fleet) throws Exception {
        return fleet.engine.reconciler().state().apps().get("web");
    }

    /** Moves time on by {@code step}, lets the clusters catch up, and runs a pass, recording which clusters were progressing. */
    static PassReport step(TestFleet fleet, Duration step, List<List<String>> progressing) throws Exception {
        PassReport r = fleet.passAfter(step);
        RolloutState rollout = web(fleet).rollout();
        if (rollout != null) progressing.add(rollout.clusters().stream().filter(s -> s.state() == ClusterStep.State.Progressing).map(ClusterStep::cluster).toList());
        return r;
    }

    @Test
    void threeWavesInOrderRespectingConcurrency() throws Exception {
        try (TestFleet fleet = start("Pause")) {
            String v1 = web(fleet).revision();
            fleet.push("web 1.5.0", c -> c.write(DEPLOYMENT, web("1.5.0")));
            PassReport first = fleet.pass();
            assertEquals(List.of("eu-1"), first.plan().stages().get(0).clusters(), "the canary goes first:\n" + first.plan());
            assertTrue(first.plan().held().stream().allMatch(h -> h.reason().text().startsWith("rollout prod-waves: waits for wave 1")), first.plan().held().toString());
            assertEquals("1.5.0", image(fleet, "eu-1"));
            assertEquals("1.4.2", image(fleet, "eu-2"));
            List<RevCommit> log = fleet.statusLog();
            assertTrue(log.get(1).getFullMessage().contains("wave 1/3 started on eu-1") && log.get(1).getFullMessage().contains("Windlass-Event: Rollout"),
                    "the step is recorded before it is applied: " + log.get(1).getFullMessage());
            assertTrue(log.get(0).getFullMessage().contains("1 configured"), log.get(0).getFullMessage());

            List<List<String>> progressing = new ArrayList<>();
            List<String> order = new ArrayList<>();
            for (int i = 0; i < 40 && web(fleet).rollout().active(); i++) {
                step(fleet, Duration.ofSeconds(10), progressing);
                for (String c : List.of("eu-1", "eu-2", "us-1")) if (image(fleet, c).equals("1.5.0") && !order.contains(c)) order.add(c);
            }
            assertEquals(RolloutState.Result.Succeeded, web(fleet).rollout().result(), web(fleet).rollout().toString());
            assertEquals(List.of("eu-2", "us-1"), order.subList(1, order.size()), "eu-1 first (before the loop), then group eu, then the rest");
            assertTrue(progressing.stream().allMatch(p -> p.size() <= 1), "never more than maxConcurrency at once: " + progressing);
            AppStatus done = web(fleet);
            assertEquals(done.revision(), done.lastGood().revision());
            assertEquals(List.of(done.revision(), v1), done.rollouts().stream().map(h -> h.revision()).toList(), "history, newest first");
            assertEquals(RolloutState.Result.Succeeded, done.rollouts().get(0).result());
            String story = String.join("\n", fleet.statusLog().stream().map(RevCommit::getFullMessage).toList());
            assertTrue(story.contains("wave 2/3 (eu-2) healthy after"), story);
            assertTrue(story.contains("rolled out to 3 clusters"), story);
        }
    }

    @Test
    void aFailureInWave2PausesAndTheRevisionIsNeverRetried() throws Exception {
        try (TestFleet fleet = start("Pause")) {
            fleet.backend.noRoomForNewPods("eu-2", true);
            fleet.push("web 1.5.0", c -> c.write(DEPLOYMENT, web("1.5.0")));
            fleet.pass();
            for (int i = 0; i < 40 && web(fleet).rollout().active(); i++) step(fleet, Duration.ofSeconds(10), new ArrayList<>());
            RolloutState r = web(fleet).rollout();
            assertEquals(RolloutState.Result.Failed, r.result(), r.toString());
            assertEquals(ClusterStep.State.TimedOut, r.step("eu-2").state());
            assertTrue(r.message().contains("eu-2 TimedOut"), r.message());
            assertEquals("1.5.0", image(fleet, "eu-1"));
            assertEquals("1.4.2", image(fleet, "us-1"), "not yet updated: keeps the previous revision");
            assertTrue(web(fleet).invalidRevisions().contains(r.revision()));

            fleet.push("docs only", c -> c.write("README.md", "unrelated change\n"));
            PassReport again = fleet.pass();
            assertFalse(again.plan().actions().stream().anyMatch(a -> a.app().equals("web") && a.cluster().equals("us-1")));
            assertTrue(again.plan().held().stream().anyMatch(h -> h.action().cluster().equals("us-1")
                    && h.reason().text().contains("is invalid: its rollout failed")), again.plan().held().toString());

            fleet.backend.noRoomForNewPods("eu-2", false);
            fleet.push("web 1.5.1", c -> c.write(DEPLOYMENT, web("1.5.1")));
            PassReport fresh = fleet.pass();
            assertEquals(List.of("eu-1"), fresh.plan().stages().get(0).clusters(), "changed content: a new rollout, canary first");
        }
    }

    @Test
    void aFailureInWave2RollsBackWhatTheRolloutTouched() throws Exception {
        try (TestFleet fleet = start("Rollback")) {
            String good = web(fleet).revision();
            fleet.backend.noRoomForNewPods("eu-2", true);
            fleet.push("web 1.5.0", c -> c.write(DEPLOYMENT, web("1.5.0")));
            fleet.pass();
            for (int i = 0; i < 40 && web(fleet).rollout().active(); i++) step(fleet, Duration.ofSeconds(10), new ArrayList<>());
            assertEquals(RolloutState.Result.RolledBack, web(fleet).rollout().result(), web(fleet).rollout().toString());
            for (int i = 0; i < 6; i++) step(fleet, Duration.ofSeconds(10), new ArrayList<>());
            assertEquals("1.4.2", image(fleet, "eu-1"), "rolled back");
            assertEquals("1.4.2", image(fleet, "eu-2"), "rolled back");
            assertEquals("1.4.2", image(fleet, "us-1"), "never touched");
            assertEquals(good, web(fleet).target("eu-1").revision());
            String story = String.join("\n", fleet.statusLog().stream().map(RevCommit::getFullMessage).toList());
            assertTrue(story.contains("rollout failed, rolled back to " + good), story);
        }
    }

    @Test
    void aNewRevisionMidRolloutSupersedesIt() throws Exception {
        try (TestFleet fleet = start("Pause")) {
            fleet.push("web 1.5.0", c -> c.write(DEPLOYMENT, web("1.5.0")));
            fleet.pass();
            for (int i = 0; i < 40 && !image(fleet, "eu-2").equals("1.5.0"); i++) step(fleet, Duration.ofSeconds(10), new ArrayList<>());
            String superseded = web(fleet).rollout().revision();
            fleet.push("web 1.6.0", c -> c.write(DEPLOYMENT, web("1.6.0")));
            PassReport r = fleet.pass();
            assertEquals(List.of("eu-1"), r.plan().stages().get(0).clusters());
            assertEquals(RolloutState.Result.Superseded, web(fleet).rollouts().get(0).result());
            assertEquals(superseded, web(fleet).rollouts().get(0).revision());
            for (int i = 0; i < 60 && web(fleet).rollout().active(); i++) step(fleet, Duration.ofSeconds(10), new ArrayList<>());
            assertEquals("1.6.0", image(fleet, "us-1"), "us-1 went straight from 1.4.2 to 1.6.0");
        }
    }

    @Test
    void clustersJoiningAndLeavingMidRollout() throws Exception {
        try (TestFleet fleet = start("Pause")) {
            fleet.push("web 1.5.0", c -> c.write(DEPLOYMENT, web("1.5.0")));
            fleet.pass();
            String eu3 = ReconcileLoopE2E.read(EXAMPLES.resolve("clusters/eu-2.yaml")).replace("eu-2", "eu-3");
            fleet.push("eu-3 joins during wave 1", c -> c.write("clusters/eu-3.yaml", fleet.backend.real() ? fleet.connectedHere(eu3) : eu3));
            step(fleet, Duration.ofSeconds(5), new ArrayList<>());
            assertNotNull(web(fleet).rollout().step("eu-3"), "the joining cluster is part of the rollout");
            assertEquals(ClusterStep.State.Pending, web(fleet).rollout().step("eu-3").state());
            for (int i = 0; i < 40 && web(fleet).rollout().step("eu-2").state() != ClusterStep.State.Progressing; i++) {
                step(fleet, Duration.ofSeconds(10), new ArrayList<>());
            }
            String us1 = ReconcileLoopE2E.read(EXAMPLES.resolve("clusters/us-1.yaml")).replace("env: prod", "env: staging");
            fleet.push("us-1 leaves during wave 2", c -> c.write("clusters/us-1.yaml", fleet.backend.real() ? fleet.connectedHere(us1) : us1));
            for (int i = 0; i < 60 && web(fleet).rollout().active(); i++) step(fleet, Duration.ofSeconds(10), new ArrayList<>());
            RolloutState r = web(fleet).rollout();
            assertEquals(RolloutState.Result.Succeeded, r.result(), r.toString());
            assertEquals(List.of("eu-1", "eu-2", "eu-3"), r.clusters().stream().map(ClusterStep::cluster).toList());
            assertEquals("1.5.0", image(fleet, "eu-3"));
        }
    }
}
