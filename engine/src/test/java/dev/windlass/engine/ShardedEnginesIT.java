package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.cluster.ClientSettings;
import dev.windlass.engine.lease.LeaseSettings;
import dev.windlass.engine.lease.ShardLeases;
import dev.windlass.engine.reconcile.Engine;
import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.git.GitRemote;
import dev.windlass.git.Mirror;
import dev.windlass.kubetest.Await;
import dev.windlass.kubetest.KubeApiServer;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.shard.ShardScope;
import dev.windlass.policy.state.RolloutState;
import dev.windlass.sandbox.RequestLog;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two engines, two shards on a real API server's Leases, one config repo and status branch, sandbox member clusters:
 * eu-1 pinned to shard 0 (replica A, the coordinator), eu-2 and us-1 to shard 1 (replica B). Each replica writes only its
 * own clusters; a rollout whose waves cross the two shards is decided and recorded by the coordinator and each wave is
 * applied once, by the shard that owns the cluster, in the policy's order.
 */
class ShardedEnginesIT {
    static final Path EXAMPLES = Path.of("..", "examples-repo");
    static final String NAMESPACE = "default";
    static final String DEPLOYMENT = "apps/web/manifests/deployment.yaml";
    static final Map<String, Integer> PINS = Map.of("eu-1", 0, "eu-2", 1, "us-1", 1);
    static KubeApiServer management;

    @TempDir Path dir;

    @BeforeAll static void start() { management = KubeApiServer.start(); }

    @AfterAll static void stop() { if (management != null) management.close(); }

    static LeaseSettings settings(String identity) {
        return new LeaseSettings(NAMESPACE, "windlass", identity, Duration.ofSeconds(6), Duration.ofSeconds(4), Duration.ofSeconds(1),
                Duration.ofSeconds(2));
    }

    @Test
    void eachShardWritesItsOwnClustersAndACrossShardRolloutIsAppliedOnceInOrder() throws Exception {
        try (TestFleet fleet = new TestFleet(dir);
             KubernetesClient client = management.newClient();
             ShardLeases a = ShardLeases.stand(client, settings("replica-a"), 2, new TreeSet<>(Set.of(0)), s -> {});
             ShardLeases b = ShardLeases.stand(client, settings("replica-b"), 2, new TreeSet<>(Set.of(1)), s -> {});
             Engine engineA = engine(fleet, "engine-a", a);
             Engine engineB = engine(fleet, "engine-b", b)) {
            Await.until(Duration.ofSeconds(20), "each replica holds its preferred shard",
                    () -> holder(client, 0) + " " + holder(client, 1), "replica-a replica-b"::equals);
            fleet.push("the fleet, pinned to two shards, with waves", c -> {
                c = TestFleet.folder(EXAMPLES, "").apply(c).write("policies/rollout.yaml", RolloutContract.policy("Pause"));
                for (var pin : PINS.entrySet()) {
                    c = c.write("clusters/" + pin.getKey() + ".yaml", ReconcileLoopE2E.read(EXAMPLES.resolve("clusters/" + pin.getKey() + ".yaml"))
                            + "  shard: " + pin.getValue() + "\n");
                }
                return c;
            });
            // First sync: each replica's passes write its own clusters only.
            for (int i = 0; i < 30 && !(settled(fleet, engineA, "eu-1") & settled(fleet, engineB, "eu-2", "us-1")); i++) {
                fleet.backend.advance(fleet.clock, Duration.ofSeconds(5));
            }
            assertEquals("1.4.2", image(fleet, "eu-1"));
            assertEquals("1.4.2", image(fleet, "eu-2"));
            assertEquals("1.4.2", image(fleet, "us-1"));
            // Idle: neither replica plans a target afresh, its own clusters' (from watches) or the other shard's (from the record).
            assertEquals(0, onlyOwn(fleet, engineA, Set.of("eu-1"), new TreeMap<>()).planning().targetsPlanned());
            long trips = engineB.mirror().roundTrips();
            assertEquals(0, onlyOwn(fleet, engineB, Set.of("eu-2", "us-1"), new TreeMap<>()).planning().targetsPlanned());
            // ... and asks the Git remote once: the fetch that brought every branch, the status branch it reads afresh included.
            assertEquals(1, engineB.mirror().roundTrips() - trips, "Git round trips of an idle sharded pass");

            // A new revision of web: waves eu-1 (shard 0), eu-2 (shard 1), us-1 (shard 1).
            fleet.push("web 1.5.0", c -> c.write(DEPLOYMENT, ReconcileLoopE2E.read(EXAMPLES.resolve(DEPLOYMENT)).replace("web:1.4.2", "web:1.5.0")));
            int before = fleet.statusLog().size();
            Map<String, Long> webWrites = new TreeMap<>();
            List<String> order = new ArrayList<>();
            List<String> awaited = new ArrayList<>();
            for (int i = 0; i < 60 && (web(engineA).rollout() == null || web(engineA).rollout().active()
                    || !web(engineA).revision().equals(web(engineA).rollout().revision()) || order.size() < 3); i++) {
                onlyOwn(fleet, engineB, Set.of("eu-2", "us-1"), webWrites);
                // Replica b runs first: once wave 1 has soaked, its own plan starts eu-2 before the coordinator has recorded it.
                String bRecorded = fleet.statusFile("status/apps/web.yaml");
                if (bRecorded.contains(ShardScope.AWAITING.text())) awaited.add(bRecorded);
                onlyOwn(fleet, engineA, Set.of("eu-1"), webWrites);
                for (String c : List.of("eu-1", "eu-2", "us-1")) if (image(fleet, c).equals("1.5.0") && !order.contains(c)) order.add(c);
                fleet.backend.advance(fleet.clock, Duration.ofSeconds(10));
            }
            RolloutState rollout = web(engineA).rollout();
            assertNotNull(rollout);
            assertEquals(RolloutState.Result.Succeeded, rollout.result(), rollout.toString());
            assertEquals(List.of("eu-1", "eu-2", "us-1"), order, "the waves in the policy's order, across the shards");
            assertEquals(Map.of("eu-1", 1L, "eu-2", 1L, "us-1", 1L), webWrites, "web's Deployment written once on each cluster");

            List<RevCommit> log = fleet.statusLog();
            List<String> messages = log.subList(0, log.size() - before).stream().map(RevCommit::getFullMessage).toList();
            String story = String.join("\n---\n", messages);
            for (String wave : List.of("wave 1/3 started on eu-1", "wave 2/3 started on eu-2", "wave 3/3 started on us-1")) {
                assertEquals(1, messages.stream().filter(m -> m.contains(wave)).count(), "recorded once: " + wave + "\n" + story);
            }
            assertTrue(story.contains("rolled out to 3 clusters"), story);
            assertTrue(!awaited.isEmpty(), "replica b recorded web waiting for the coordinator when its own plan would start a wave");
            assertTrue(awaited.get(0).contains("waiting: " + ShardScope.AWAITING.text()), awaited.get(0));

            // The rollout done and nothing new: once each replica's last whole pass found the fleet at rest and the status
            // branch stays where both left it, each skips its passes, still with one round trip to Git (whether either
            // branch moved).
            boolean bothSkipped = false;
            for (int i = 0; i < 4 && !bothSkipped; i++) {
                long tripsA = engineA.mirror().roundTrips();
                PassReport quietA = onlyOwn(fleet, engineA, Set.of("eu-1"), new TreeMap<>());
                assertEquals(1, engineA.mirror().roundTrips() - tripsA, "Git round trips of an idle sharded pass");
                PassReport quietB = onlyOwn(fleet, engineB, Set.of("eu-2", "us-1"), new TreeMap<>());
                bothSkipped = quietA.skipped() && quietB.skipped();
            }
            assertTrue(bothSkipped, "both replicas skip their passes once the fleet is at rest");

            // A branch's review, made by the coordinator: the other shard's clusters are planned from their record, as in
            // its passes, not taken for unreachable; the review writes to no cluster.
            String deployment = ReconcileLoopE2E.read(EXAMPLES.resolve(DEPLOYMENT)).replace("web:1.4.2", "web:1.5.0").replace("replicas: 2", "replicas: 3");
            fleet.pushTo("feature/scale", "web: 3 replicas", c -> c.write(DEPLOYMENT, deployment));
            PassReport main = onlyOwn(fleet, engineA, Set.of("eu-1"), new TreeMap<>());
            fleet.resetRequestCounts();
            engineA.reviews().run(main.source(), main.desired());
            String plan = fleet.statusFile("plans/feature/scale.md");
            assertNotNull(plan, "the coordinator reviewed the branch");
            assertTrue(plan.contains("on 3 clusters"), plan);
            assertTrue(!plan.toLowerCase().contains("unreachable"), plan);
            for (var cluster : fleet.sandbox.clusters()) assertEquals(0, cluster.requests().writes(), "a review writes nothing: " + cluster.name());
        }
    }

    /** Runs a pass of {@code engine}, asserting that it wrote to none but {@code own}; counts writes of web's Deployment. */
    private static PassReport onlyOwn(TestFleet fleet, Engine engine, Set<String> own, Map<String, Long> webWrites) throws Exception {
        fleet.resetRequestCounts();
        engine.awaitWatchesCurrent(Duration.ofSeconds(10));
        PassReport r = engine.reconciler().reconcile();
        for (var cluster : fleet.sandbox.clusters()) {
            String c = cluster.name();
            RequestLog log = cluster.requests();
            if (!own.contains(c)) assertEquals(0, log.writes(), c + " written by a replica that does not own it: " + log.snapshot());
            long web = log.snapshot().entrySet().stream()
                    .filter(e -> Set.of("POST", "PUT", "PATCH").contains(e.getKey().method()) && e.getKey().path().contains("/deployments/web"))
                    .mapToLong(Map.Entry::getValue).sum();
            if (web > 0) webWrites.merge(c, web, Long::sum);
        }
        assertEquals(new TreeSet<>(own), r.shards().clusters(), "the clusters of the shards this replica holds");
        return r;
    }

    /** One pass that writes only {@code own}; true when it changed nothing and holds nothing. */
    private static boolean settled(TestFleet fleet, Engine engine, String... own) throws Exception {
        PassReport r = onlyOwn(fleet, engine, Set.of(own), new TreeMap<>());
        return !r.committed() && r.applied().results().isEmpty() && r.plan().held().isEmpty();
    }

    private static AppStatus web(Engine engine) throws Exception { return engine.reconciler().state().apps().get("web"); }

    private static String image(TestFleet fleet, String cluster) {
        try (KubernetesClient k = fleet.client(cluster)) {
            var d = k.apps().deployments().inNamespace("web").withName("web").get();
            return d == null ? "none" : d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage().replace("ghcr.io/example/web:", "");
        }
    }

    private static Engine engine(TestFleet fleet, String name, ShardLeases shards) throws Exception {
        return new Engine(Mirror.open(fleet.origin.resolveSibling(name), GitRemote.anonymous(fleet.origin.toString())), "main",
                "windlass/status", fleet.sandbox, fleet.clock, System::getenv, ClientSettings.DEFAULT, shards);
    }

    static String holder(KubernetesClient client, int shard) {
        Lease lease = client.resources(Lease.class).inNamespace(NAMESPACE).withName(ShardLeases.leaseName("windlass", shard)).get();
        return lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    }
}
