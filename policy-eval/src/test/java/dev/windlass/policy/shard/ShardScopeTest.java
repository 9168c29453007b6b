package dev.windlass.policy.shard;

import dev.windlass.policy.plan.ActionReason;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.model.SourceLocation;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.Operation;
import dev.windlass.policy.plan.HeldAction;
import dev.windlass.policy.plan.Plan;
import dev.windlass.policy.plan.Stage;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.TargetStatus;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a replica holding some shards acts on and records; the fleet-wide parts are the coordinator's. */
class ShardScopeTest {
    // eu-1 pinned to shard 0 (the coordinator's), eu-2 to shard 1.
    private static final ShardAssignment TWO = ShardAssignment.of(2, Map.of(
            "eu-1", cluster("eu-1", 0), "eu-2", cluster("eu-2", 1)));
    private static final ShardScope COORDINATOR = ShardScope.of(Set.of(0), TWO);
    private static final ShardScope SHARD_1 = ShardScope.of(Set.of(1), TWO);

    private static Cluster cluster(String name, Integer pin) {
        return new Cluster(name, Map.of(), new Cluster.Sandbox(1, 1), false, 60, SourceLocation.file("clusters/" + name + ".yaml"),
                Map.of(), pin);
    }

    private static TargetStatus target(String cluster, String revision) {
        return new TargetStatus(cluster, revision, dev.windlass.policy.state.Sync.Synced, dev.windlass.policy.state.Health.Healthy, "", List.of(), List.of());
    }

    private static AppStatus app(String revision, TargetStatus... targets) {
        return new AppStatus("web", "apps/web.yaml", revision, "c0ffee", true, List.of(), List.of("eu-1", "eu-2"), List.of(targets), List.of());
    }

    private static ClusterStatus clusterStatus(String name, String message) {
        return new ClusterStatus(name, "clusters/" + name + ".yaml", dev.windlass.policy.state.Reachability.Reachable, message, "ServerSide", 1, 1, List.of());
    }

    private static EngineState state(String source, AppStatus app, ClusterStatus... clusters) {
        Map<String, ClusterStatus> cs = new java.util.TreeMap<>();
        for (ClusterStatus c : clusters) cs.put(c.name(), c);
        return EngineState.of(source, Map.of("web", app), cs);
    }

    @Test void aShardRecordsItsOwnTargetsAndClustersAndKeepsTheRestAsRead() {
        EngineState fresh = state("s1", app("r1", target("eu-1", "r1"), target("eu-2", "r1")),
                clusterStatus("eu-1", "read"), clusterStatus("eu-2", "read"));
        EngineState next = state("s2", app("r2", target("eu-1", "r2"), target("eu-2", "r2")),
                clusterStatus("eu-1", "computed"), clusterStatus("eu-2", "computed"));

        EngineState byShard1 = SHARD_1.merge(fresh, next);
        assertEquals("r1", byShard1.apps().get("web").revision(), "the application's own part is the coordinator's");
        assertEquals(List.of(target("eu-1", "r1"), target("eu-2", "r2")), byShard1.apps().get("web").targets());
        assertEquals("read", byShard1.clusters().get("eu-1").message());
        assertEquals("computed", byShard1.clusters().get("eu-2").message());
        assertEquals("s1", byShard1.source());

        EngineState byCoordinator = COORDINATOR.merge(fresh, next);
        assertEquals("r2", byCoordinator.apps().get("web").revision());
        assertEquals(List.of(target("eu-1", "r2"), target("eu-2", "r1")), byCoordinator.apps().get("web").targets());
        assertEquals("computed", byCoordinator.clusters().get("eu-1").message());
        assertEquals("read", byCoordinator.clusters().get("eu-2").message());
        assertEquals("s2", byCoordinator.source());
    }

    @Test void aClusterGitNoLongerListsIsClearedByTheCoordinatorOnly() {
        EngineState fresh = state("s1", app("r1", target("eu-1", "r1"), target("gone", "r1")),
                clusterStatus("eu-1", "read"), clusterStatus("gone", "read"));
        EngineState next = state("s1", app("r1", target("eu-1", "r1")), clusterStatus("eu-1", "read"));
        assertNull(COORDINATOR.merge(fresh, next).clusters().get("gone"));
        assertEquals(List.of(target("eu-1", "r1")), COORDINATOR.merge(fresh, next).apps().get("web").targets());
        assertEquals("read", SHARD_1.merge(fresh, next).clusters().get("gone").message());
    }

    @Test void onlyTheCoordinatorRecordsAFleetWideDecisionAndTheOthersWaitForIt() {
        EngineState before = state("s1", app("r1", target("eu-1", "r1")), clusterStatus("eu-2", "read"));
        EngineState intent = state("s1", app("r2", target("eu-1", "r1")), clusterStatus("eu-2", "remediation marked"));
        assertEquals(Set.of("web"), SHARD_1.awaitingCoordinator(before, intent));
        assertEquals(Set.of(), COORDINATOR.awaitingCoordinator(before, intent));
        EngineState recorded = SHARD_1.intentToRecord(before, intent);
        assertEquals("r1", recorded.apps().get("web").revision(), "shard 1 records no rollout step");
        assertEquals("remediation marked", recorded.clusters().get("eu-2").message(), "its own cluster's records it keeps");
        assertEquals("r2", COORDINATOR.intentToRecord(before, intent).apps().get("web").revision());
    }

    @Test void aShardExecutesOnlyItsClustersActionsAndNoneOfAnApplicationAwaitingTheCoordinator() {
        Action web1 = action("web", "eu-1");
        Action web2 = action("web", "eu-2");
        Action api2 = action("api", "eu-2");
        Plan plan = new Plan("c0ffee", List.of(new Stage("apply", "", List.of(web1, web2, api2))), List.of(), List.of(), List.of(), "h",
                Map.of(), true);
        assertEquals(List.of(new Stage("apply", "", List.of(web2, api2))), SHARD_1.stages(plan));
        assertEquals(List.of(new Stage("apply", "", List.of(api2))), SHARD_1.stages(SHARD_1.holdAwaiting(plan, Set.of("web"))));
        assertEquals(List.of(new Stage("apply", "", List.of(web1))), COORDINATOR.stages(plan));
        assertEquals(List.of(), ShardScope.of(Set.of(), TWO).stages(plan));
    }

    @Test void anApplicationAwaitingTheCoordinatorHasItsActionsHeldAndSaysWhy() {
        Action web1 = action("web", "eu-1");
        Action web2 = action("web", "eu-2");
        Action api2 = action("api", "eu-2");
        Plan plan = new Plan("c0ffee", List.of(new Stage("apply", "", List.of(web1, web2, api2)), new Stage("prune", "", List.of(web2))), List.of(),
                List.of(), List.of(), "h", Map.of(), true);
        Plan held = SHARD_1.holdAwaiting(plan, Set.of("web"));
        assertEquals(List.of(new Stage("apply", "", List.of(api2))), held.stages());
        assertEquals(List.of(new HeldAction(web1, ShardScope.AWAITING), new HeldAction(web2, ShardScope.AWAITING), new HeldAction(web2, ShardScope.AWAITING)),
                held.held());
        assertEquals(plan.rollouts(), held.rollouts());
        assertEquals(plan, SHARD_1.holdAwaiting(plan, Set.of()));
    }

    private static Action action(String app, String cluster) {
        return new Action(app, cluster, new ObjectRef("apps", "Deployment", "default", app), "apps/v1", Operation.Create, new ActionReason.NotOnCluster(), List.of(),
                null, null, false, false);
    }
}
