package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.Condition;
import dev.windlass.policy.state.EvictionTask;
import dev.windlass.policy.state.FailoverRecord;
import dev.windlass.policy.state.PreservedValue;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Applications moving off failing clusters, with a hand-moved clock: tolerations, each purge mode, state carried over
 * as labels, and the safety limits. Run on the sandbox (FailoverE2E) and on real control planes (FailoverIT), where
 * each fault is a real one: an API server that is down, nodes whose kubelets stopped, and an application failure that
 * is a rollout whose new Pods nobody can schedule (every node cordoned) until its progress deadline passes.
 */
abstract class FailoverContract {
    static final String CHECKPOINT = "stream.example.com/checkpoint";
    static final String LABEL = "windlass.dev/checkpoint";

    @TempDir Path dir;

    /** Real control planes, or the sandbox. */
    abstract boolean real();

    static String cluster(TestFleet fleet, String name) {
        return fleet.clusterYaml(name, "env: prod", 2, 1, "unreachableTolerationSeconds: 60");
    }

    static String app(String name, String placement) {
        return """
                apiVersion: windlass.dev/v1alpha1
                kind: Application
                metadata: {name: %s, labels: {tier: stream}}
                spec:
                  source: {path: apps/%s}
                  namespace: %s
                  placement: %s
                """.formatted(name, name, name, placement);
    }

    static String deployment(String name) { return deployment(name, "2.1"); }

    /** With a short progress deadline, so that a rollout nobody can schedule fails within seconds on a real cluster. */
    static String deployment(String name, String version) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: ingest, labels: {app: %s}}
                spec:
                  replicas: 1
                  progressDeadlineSeconds: 5
                  selector: {matchLabels: {app: %s}}
                  template:
                    metadata: {labels: {app: %s}}
                    spec:
                      containers: [{name: ingest, image: "ghcr.io/example/ingest:%s"}]
                """.formatted(name, name, name, version);
    }

    static String policy(String purgeMode, int historyLimit, String extraRule) {
        String grace = purgeMode.equals("Gracefully") ? "\n    gracePeriodSeconds: 120" : "";
        return """
                apiVersion: windlass.dev/v1alpha1
                kind: FailoverPolicy
                metadata: {name: stateful}
                spec:
                  selector: {matchLabels: {tier: stream}}
                  application:
                    tolerationSeconds: 60
                    purgeMode: %s%s
                    statePreservation:
                      rules:
                        - {aliasLabelName: %s, jsonPath: "{ .metadata.annotations['%s'] }"}%s
                  cluster:
                    tolerationSeconds: 60
                    purgeMode: %s%s
                  historyLimit: %d
                """.formatted(purgeMode, grace, LABEL, CHECKPOINT, extraRule, purgeMode, grace, historyLimit);
    }

    static final String ONE_PROD_CLUSTER = "{clusterSelector: {matchLabels: {env: prod}}, maxClusters: 1}";

    /** Three prod clusters and the stream app on one of them (eu-1, first by name), synced and healthy. */
    TestFleet start(String purgeMode) throws Exception {
        return start(purgeMode, 10, "", ONE_PROD_CLUSTER);
    }

    TestFleet start(String purgeMode, int historyLimit, String extraRule, String placement) throws Exception {
        return startIn(dir, real(), purgeMode, historyLimit, extraRule, placement);
    }

    static TestFleet startIn(Path dir, boolean real, String purgeMode, int historyLimit, String extraRule, String placement) throws Exception {
        TestFleet fleet = new TestFleet(dir, real);
        fleet.push("fleet with a failover policy", c -> c
                .write("clusters/eu-1.yaml", cluster(fleet, "eu-1")).write("clusters/eu-2.yaml", cluster(fleet, "eu-2"))
                .write("clusters/us-1.yaml", cluster(fleet, "us-1"))
                .write("apps/stream.yaml", app("stream", placement)).write("apps/stream/deployment.yaml", deployment("stream"))
                .write("policies/failover.yaml", policy(purgeMode, historyLimit, extraRule)));
        fleet.settle();
        assertEquals(List.of("eu-1"), stream(fleet).placement());
        return fleet;
    }

    static AppStatus stream(TestFleet fleet) throws Exception { return fleet.engine.reconciler().state().apps().get("stream"); }

    static Deployment ingest(TestFleet fleet, String cluster, String ns) {
        try (KubernetesClient k = fleet.client(cluster)) {
            return k.apps().deployments().inNamespace(ns).withName("ingest").get();
        }
    }

    /** What the running application writes about itself: its last checkpoint, on its own Deployment. */
    static void checkpoint(TestFleet fleet, String cluster, String value) {
        try (KubernetesClient k = fleet.client(cluster)) {
            k.apps().deployments().inNamespace("stream").withName("ingest")
                    .edit(d -> { d.getMetadata().getAnnotations().put(CHECKPOINT, value); return d; });
        }
    }

    /** Moves the engine's time on, lets the clusters catch up, and runs a pass. */
    static PassReport after(TestFleet fleet, int seconds) throws Exception {
        return fleet.passAfter(Duration.ofSeconds(seconds));
    }

    static String story(TestFleet fleet) throws Exception {
        return String.join("\n----\n", fleet.statusLog().stream().map(RevCommit::getFullMessage).toList());
    }

    /** Both of the cluster's nodes go not ready: their kubelets stop. */
    static void notReady(TestFleet fleet, String cluster) {
        fleet.backend.nodesReady(cluster, List.of(cluster + "-cp-1", cluster + "-worker-1"), false);
    }

    private static int release = 2;

    /**
     * The application fails on {@code clusters}: they have no room for new Pods, and a new version is pushed; its
     * rollout there passes its progress deadline and the application is Degraded. Elsewhere it rolls out.
     */
    static void applicationFails(TestFleet fleet, String app, String... clusters) throws Exception {
        for (String c : clusters) fleet.backend.noRoomForNewPods(c, true);
        String version = "2." + release++;
        fleet.push(app + " " + version, c -> c.write("apps/" + app + "/deployment.yaml", deployment(app, version)));
    }

    /** Passes a second apart until the application is Degraded on {@code cluster}: its rollout there has failed. */
    static void untilDegraded(TestFleet fleet, String app, String cluster) throws Exception {
        for (int i = 0; i < 30; i++) {
            var target = fleet.engine.reconciler().state().apps().get(app).target(cluster);
            if (target != null && target.health() == dev.windlass.policy.state.Health.Degraded) return;
            after(fleet, 1);
        }
        throw new AssertionError(app + " never Degraded on " + cluster + ": " + fleet.engine.reconciler().state().apps().get(app));
    }

    /**
     * The cluster's API server answers again, and on a real control plane the test waits until the server says its
     * nodes are Ready: a restarted server answers before its node controller has seen the nodes' heartbeats again, and
     * the engine would rightly see the cluster not ready for a pass or two. "It answers" is the cluster back as it was.
     */
    static void answersAgain(TestFleet fleet, String cluster) {
        fleet.backend.down(cluster, false);
        if (!fleet.backend.real()) return;
        try (var k = fleet.client(cluster)) {
            dev.windlass.kubetest.Await.until(java.time.Duration.ofSeconds(60), cluster + "'s nodes Ready again",
                    () -> k.nodes().list().getItems(), nodes -> !nodes.isEmpty() && nodes.stream().allMatch(n ->
                            n.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"))));
        }
    }

    /** The cluster has room for new Pods again. */
    static void recovers(TestFleet fleet, String cluster) { fleet.backend.noRoomForNewPods(cluster, false); }

    /** Passes every 10 s until {@code done} holds; fails after 30. */
    static void until(TestFleet fleet, Predicate<AppStatus> done, String what) throws Exception {
        for (int i = 0; i < 30; i++) {
            if (done.test(stream(fleet))) return;
            after(fleet, 10);
        }
        throw new AssertionError("never " + what + ": " + stream(fleet) + "\n" + story(fleet));
    }

    static boolean failedOver(AppStatus a) { return !a.failoverMemory().history().isEmpty(); }

    @Test
    void clusterDownDirectlyMovesAfterTheTolerationCarriesTheLastObservedStateAndPurgesWhenItAnswersAgain() throws Exception {
        try (TestFleet fleet = start("Directly")) {
            checkpoint(fleet, "eu-1", "4711");
            fleet.pass();
            assertEquals(List.of(new PreservedValue(LABEL, "4711", "Deployment stream/ingest")),
                    stream(fleet).target("eu-1").observedState(), "observed each pass, kept for when the cluster stops answering");

            fleet.backend.down("eu-1", true);
            after(fleet, 5);
            java.time.Instant downSince = fleet.engine.reconciler().state().clusters().get("eu-1").unhealthySince();
            assertNotNull(downSince);
            after(fleet, 50);
            assertEquals(List.of("eu-1"), stream(fleet).placement(), "55 s down: within the 60 s toleration");
            assertNull(ingest(fleet, "eu-2", "stream"));

            PassReport moved = after(fleet, 10);
            assertTrue(moved.plan().recordFirst(), "the eviction is recorded before anything moves");
            RevCommit recorded = fleet.statusLog().get(1);
            assertTrue(recorded.getFullMessage().startsWith("windlass: stream failover eu-1 → eu-2 started (ClusterUnreachable), purge Directly"),
                    recorded.getFullMessage());
            assertTrue(recorded.getFullMessage().contains("\n- stream carries " + LABEL + "=4711 to eu-2\n"), recorded.getFullMessage());
            assertTrue(recorded.getFullMessage().contains("Windlass-Event: Failover"));
            Deployment moved2 = ingest(fleet, "eu-2", "stream");
            assertNotNull(moved2, "the new cluster gets the app in the same pass");
            assertEquals("4711", moved2.getMetadata().getLabels().get(LABEL), "the last value observed on eu-1, as a label");
            EvictionTask task = stream(fleet).failoverMemory().eviction("eu-1");
            assertEquals(downSince, fleet.engine.reconciler().state().clusters().get("eu-1").unhealthySince(), "one clock, never reset");
            assertEquals(List.of("eu-1"), task.clustersBeforeFailover());
            assertEquals(List.of("eu-2"), task.clustersAfterFailover());
            assertEquals(EvictionTask.Purge.Pending, task.purge(), "eu-1 does not answer: its copy is removed when it does");

            until(fleet, FailoverContract::failedOver, "healthy on eu-2");
            FailoverRecord h = stream(fleet).failoverMemory().history().get(0);
            assertEquals(List.of("eu-1"), h.clustersBeforeFailover());
            assertEquals(List.of("eu-2"), h.clustersAfterFailover());
            assertEquals(dev.windlass.policy.state.EvictionReason.ClusterUnreachable, h.reason());
            assertEquals(task.createdAt(), h.startTime());
            assertNotNull(h.endTime());
            assertEquals(List.of(new PreservedValue(LABEL, "4711", "Deployment stream/ingest")), h.preservedState());
            assertTrue(story(fleet).contains("windlass: stream failover eu-1 → eu-2 (ClusterUnreachable) healthy after "), story(fleet));

            answersAgain(fleet, "eu-1");
            after(fleet, 5);
            assertNull(ingest(fleet, "eu-1", "stream"), "Directly: removed as soon as eu-1 answers");
            assertEquals(EvictionTask.Purge.Done, stream(fleet).failoverMemory().eviction("eu-1").purge());
            assertEquals(List.of("eu-2"), stream(fleet).placement());

            after(fleet, 30);
            assertNotNull(stream(fleet).failoverMemory().eviction("eu-1"), "healthy 35 s: still excluded");
            after(fleet, 30);
            assertNull(stream(fleet).failoverMemory().eviction("eu-1"), "healthy for the toleration: back in the pool");
            assertTrue(story(fleet).contains("eu-1 is back in stream's pool"), story(fleet));
            fleet.settle();
            assertEquals(List.of("eu-2"), stream(fleet).placement(), "it does not bounce back: placement keeps the cluster it runs on");
            assertNull(ingest(fleet, "eu-1", "stream"));
            assertEquals(1, stream(fleet).failoverMemory().history().size());
        }
    }

    @Test
    void notReadyGracefullyKeepsTheOldCopyUntilTheNewPlacementIsHealthy() throws Exception {
        try (TestFleet fleet = start("Gracefully")) {
            notReady(fleet, "eu-1");
            after(fleet, 5);
            assertEquals(dev.windlass.policy.state.ClusterState.ClusterNotReady, fleet.engine.reconciler().state().clusters().get("eu-1").health());
            PassReport moved = after(fleet, 60);
            assertNotNull(ingest(fleet, "eu-2", "stream"));
            assertNotNull(ingest(fleet, "eu-1", "stream"), "Gracefully: the old copy stays while eu-2 is not healthy yet");
            assertTrue(moved.plan().held().stream().anyMatch(h -> h.action().cluster().equals("eu-1")
                    && h.reason().text().contains("removed once eu-2 is healthy")), moved.plan().held().toString());
            assertEquals(0, fleet.backend.deletes("eu-1", "deployments"));

            until(fleet, FailoverContract::failedOver, "healthy on eu-2");
            assertNull(ingest(fleet, "eu-1", "stream"), "removed in the pass that saw eu-2 healthy");
            assertEquals(dev.windlass.policy.state.EvictionReason.ClusterNotReady, stream(fleet).failoverMemory().history().get(0).reason());
        }
    }

    @Test
    void gracefullyRemovesTheOldCopyWhenTheGracePeriodEndsAndAFailedMoveIsAFailedAttemptNotHistory() throws Exception {
        try (TestFleet fleet = start("Gracefully")) {
            applicationFails(fleet, "stream", "eu-1", "eu-2");
            until(fleet, a -> a.failoverMemory().eviction("eu-1") != null, "evicted from eu-1");
            assertEquals(dev.windlass.policy.state.EvictionReason.ApplicationFailure, stream(fleet).failoverMemory().eviction("eu-1").reason());
            after(fleet, 60);
            assertNotNull(ingest(fleet, "eu-1", "stream"), "grace period (120 s) not over; eu-2 not healthy");
            for (int i = 0; i < 8 && ingest(fleet, "eu-1", "stream") != null; i++) after(fleet, 10);
            assertNull(ingest(fleet, "eu-1", "stream"), "grace period over: removed although eu-2 never became healthy");

            until(fleet, a -> !a.failoverMemory().failedAttempts().isEmpty(), "given up on eu-2");
            AppStatus s = stream(fleet);
            assertTrue(s.failoverMemory().history().isEmpty(), "never healthy: no history entry");
            FailoverRecord failed = s.failoverMemory().failedAttempts().get(0);
            assertEquals(List.of("eu-2"), failed.clustersAfterFailover());
            assertTrue(failed.failure().startsWith("eu-2 failed too (ApplicationFailure)"), failed.failure());
            assertEquals(List.of("us-1"), s.placement(), "then on to the next cluster");
            until(fleet, FailoverContract::failedOver, "healthy on us-1");
            assertEquals(List.of("eu-2"), stream(fleet).failoverMemory().history().get(0).clustersBeforeFailover());
            assertEquals(List.of("us-1"), stream(fleet).failoverMemory().history().get(0).clustersAfterFailover());
        }
    }

    @Test
    void neverLeavesTheOldCopyRunningAndMarksItOrphaned() throws Exception {
        try (TestFleet fleet = start("Never")) {
            applicationFails(fleet, "stream", "eu-1");
            until(fleet, FailoverContract::failedOver, "healthy on eu-2");
            fleet.settle();
            assertNotNull(ingest(fleet, "eu-1", "stream"), "Never: the old copy keeps running");
            assertEquals(0, fleet.backend.deletes("eu-1", "deployments"));
            assertEquals(List.of("eu-1"), stream(fleet).failoverMemory().orphanedOn());
            assertEquals(EvictionTask.Purge.Orphaned, stream(fleet).failoverMemory().eviction("eu-1").purge());
            assertNull(stream(fleet).target("eu-1"), "no longer tracked");
            assertTrue(fleet.statusFile("status/apps/stream.yaml").contains("orphanedOn:"), fleet.statusFile("status/apps/stream.yaml"));
        }
    }

    @Test
    void applicationFailureDirectlyReadsTheLiveValueAndRemovesTheOldCopyAtOnce() throws Exception {
        String missing = "\n        - {aliasLabelName: windlass.dev/epoch, jsonPath: \"{ .status.epoch }\"}";
        try (TestFleet fleet = start("Directly", 10, missing, ONE_PROD_CLUSTER)) {
            checkpoint(fleet, "eu-1", "981");
            applicationFails(fleet, "stream", "eu-1");
            untilDegraded(fleet, "stream", "eu-1");
            java.time.Instant since = stream(fleet).target("eu-1").unhealthySince();
            assertNotNull(since, "the application failure clock starts");
            after(fleet, 30);
            assertEquals(since, stream(fleet).target("eu-1").unhealthySince());
            assertEquals(List.of("eu-1"), stream(fleet).placement());
            PassReport moved = after(fleet, 30);
            assertNotNull(ingest(fleet, "eu-2", "stream"));
            assertNull(ingest(fleet, "eu-1", "stream"), "Directly, and eu-1 answers: removed in the same pass");
            assertEquals("981", ingest(fleet, "eu-2", "stream").getMetadata().getLabels().get(LABEL), "read live from eu-1");
            assertNull(ingest(fleet, "eu-2", "stream").getMetadata().getLabels().get("windlass.dev/epoch"), "a path that matched nothing is not invented");
            EvictionTask t = stream(fleet).failoverMemory().eviction("eu-1");
            assertEquals(dev.windlass.policy.state.EvictionReason.ApplicationFailure, t.reason());
            assertEquals(List.of("windlass.dev/epoch: { .status.epoch } matched nothing on any object of stream on eu-1; the label is not set"), t.notes());
            assertTrue(story(fleet).contains("stream: windlass.dev/epoch: { .status.epoch } matched nothing"), story(fleet));
            assertTrue(moved.committed());
            until(fleet, FailoverContract::failedOver, "healthy on eu-2");
            assertTrue(story(fleet).contains("stream failover eu-1 → eu-2 (ApplicationFailure) healthy after"), story(fleet));
        }
    }

    @Test
    void flappingShorterThanTheTolerationDoesNothing() throws Exception {
        try (TestFleet fleet = start("Directly")) {
            for (int i = 0; i < 4; i++) {
                fleet.backend.down("eu-1", true);
                after(fleet, 25);
                after(fleet, 25);
                answersAgain(fleet, "eu-1");
                after(fleet, 5);
                var eu1 = fleet.engine.reconciler().state().clusters().get("eu-1");
                assertNull(eu1.unhealthySince(), "the clock stops when it answers: " + eu1.reachability() + " " + eu1.health() + " " + eu1.message());
            }
            assertEquals(List.of("eu-1"), stream(fleet).placement());
            assertNull(stream(fleet).failover(), "200 s of outages, none as long as the toleration: nothing moved");
            assertNull(ingest(fleet, "eu-2", "stream"));
            assertTrue(story(fleet).lines().noneMatch(l -> l.contains("Windlass-Event: Failover")));
        }
    }

    @Test
    void noEligibleClusterKeepsTheAppWhereItIsAndSaysWhy() throws Exception {
        try (TestFleet fleet = start("Directly", 10, "", "{clusterNames: [eu-1, us-1], maxClusters: 1}")) {
            fleet.backend.down("us-1", true);
            applicationFails(fleet, "stream", "eu-1");
            untilDegraded(fleet, "stream", "eu-1");
            for (int i = 0; i < 8; i++) after(fleet, 10);
            AppStatus s = stream(fleet);
            assertEquals(List.of("eu-1"), s.placement());
            Condition blocked = s.condition("FailoverBlocked");
            assertNotNull(blocked, s.conditions().toString());
            assertEquals("NoEligibleCluster", blocked.reason());
            assertEquals("stream stays on eu-1 (ApplicationFailure): its placement selects eu-1, us-1; us-1 is ClusterUnreachable; nothing is purged",
                    blocked.message());
            assertNotNull(ingest(fleet, "eu-1", "stream"), "never purged down to zero placements");
            assertNull(s.failover(), "no eviction recorded");
            assertTrue(story(fleet).contains("failover blocked (NoEligibleCluster)"), story(fleet));
            String table = dev.windlass.engine.status.StatusTable.render(fleet.engine.reconciler().state(), null);
            assertTrue(table.contains("failover of stream blocked (NoEligibleCluster): stream stays on eu-1"), "windlass status shows it:\n" + table);
            String history = dev.windlass.engine.status.HistoryTable.render(s);
            assertTrue(history.contains("(NoEligibleCluster): stream stays on eu-1"), "windlass history shows it:\n" + history);
        }
    }

    @Test
    void whenMostClustersAreUnreachableTheFaultIsTakenToBeTheEnginesOwn() throws Exception {
        try (TestFleet fleet = start("Directly")) {
            fleet.backend.down("eu-1", true);
            fleet.backend.down("eu-2", true);
            for (int i = 0; i < 10; i++) after(fleet, 10);
            assertEquals(List.of("eu-1"), stream(fleet).placement(), "2 of 3 down, more than 50%: no failover");
            assertEquals("TooManyClustersUnhealthy", stream(fleet).condition("FailoverBlocked").reason());
            fleet.backend.down("us-1", true);
            PassReport all = after(fleet, 100);
            assertTrue(all.plan().failoverHold().startsWith("3 of 3 clusters are unreachable or not ready"), all.plan().failoverHold());
            assertNull(stream(fleet).failover());
            assertTrue(dev.windlass.policy.render.PlanMarkdown.render(all.plan(), "main").contains("No cluster failover starts"));
        }
    }

    @Test
    void evictionsAreRateLimitedAcrossTheFleet() throws Exception {
        try (TestFleet fleet = new TestFleet(dir, real())) {
            fleet.push("two stream apps, one failover at a time", c -> c
                    .write("windlass.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Settings\nspec:\n  failover: {maxConcurrentFailovers: 1}\n")
                    .write("clusters/eu-1.yaml", cluster(fleet, "eu-1")).write("clusters/eu-2.yaml", cluster(fleet, "eu-2"))
                    .write("clusters/us-1.yaml", cluster(fleet, "us-1"))
                    .write("apps/stream.yaml", app("stream", ONE_PROD_CLUSTER)).write("apps/stream/deployment.yaml", deployment("stream"))
                    .write("apps/ledger.yaml", app("ledger", ONE_PROD_CLUSTER)).write("apps/ledger/deployment.yaml", deployment("ledger"))
                    .write("policies/failover.yaml", policy("Directly", 10, "")));
            fleet.settle();
            fleet.backend.down("eu-1", true);
            after(fleet, 5);
            after(fleet, 60);
            Map<String, AppStatus> apps = fleet.engine.reconciler().state().apps();
            assertEquals(List.of("eu-2"), apps.get("ledger").placement(), "first by name");
            assertEquals(List.of("eu-1"), apps.get("stream").placement(), "waits for a slot");
            assertEquals("MaxConcurrentFailovers", apps.get("stream").condition("FailoverBlocked").reason());
            for (int i = 0; i < 20 && fleet.engine.reconciler().state().apps().get("stream").placement().contains("eu-1"); i++) after(fleet, 10);
            apps = fleet.engine.reconciler().state().apps();
            assertEquals(1, apps.get("ledger").failoverMemory().history().size(), "ledger finished first");
            assertEquals(List.of("eu-2"), apps.get("stream").placement());
            assertNull(apps.get("stream").condition("FailoverBlocked"));
        }
    }
}
