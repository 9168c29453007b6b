package dev.windlass.engine.http;

import dev.windlass.policy.plan.ActionReason;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.git.CommitOutcome;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.model.SourceLocation;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.ApplyResult;
import dev.windlass.policy.plan.Operation;
import dev.windlass.policy.plan.Outcome;
import dev.windlass.policy.plan.Plan;
import dev.windlass.policy.shard.ShardAssignment;
import dev.windlass.policy.shard.ShardScope;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** /metrics per shard: which this replica holds, how many clusters each owns, and what its passes did on them. */
class ShardMetricsTest {

    private static Cluster pinned(String name, int shard) {
        return new Cluster(name, Map.of(), new Cluster.Sandbox(1, 1), false, 60, SourceLocation.file("clusters/" + name + ".yaml"), Map.of(), shard);
    }

    @Test
    void aPassForShardOneCountsOnShardOneAndSaysWhichShardsAreHeld() {
        ShardAssignment assignment = ShardAssignment.of(2, Map.of("eu-1", pinned("eu-1", 0), "eu-2", pinned("eu-2", 1), "us-1", pinned("us-1", 1)));
        Action create = new Action("web", "eu-2", new ObjectRef("apps", "Deployment", "web", "web"), "apps/v1", Operation.Create, new ActionReason.NotOnCluster(),
                List.of(), null, null, false, false);
        PassReport report = new PassReport("0123456789abcdef", null, new Plan("0123456", List.of(), List.of(), List.of(), List.of(), "h",
                Map.of(), false), new ApplyResult(List.of(new ActionResult(create, Outcome.Created, "", false))), List.of(),
                new CommitOutcome.Unchanged(Optional.empty()), 0, null, 0, ShardScope.of(Set.of(1), assignment));
        EngineMetrics metrics = new EngineMetrics();
        java.util.concurrent.atomic.AtomicReference<dev.windlass.policy.shard.ShardSpread> leases = new java.util.concurrent.atomic.AtomicReference<>(
                spread(Map.of(0, "other_1", 1, "me_1")));
        metrics.watchShards(leases::get);
        metrics.passed(report, Duration.ofMillis(40));
        String text = metrics.scrape();
        for (String line : List.of("windlass_shard_held{shard=\"0\"} 0.0", "windlass_shard_held{shard=\"1\"} 1.0",
                "windlass_shard_clusters{shard=\"0\"} 1.0", "windlass_shard_clusters{shard=\"1\"} 2.0",
                "windlass_shard_passes_total{shard=\"1\"} 1.0", "windlass_shard_actions_total{outcome=\"Created\",shard=\"1\"} 1.0",
                "windlass_shards_held 1.0", "windlass_replicas_up 2.0")) {
            assertTrue(text.contains(line), line + " in\n" + text);
        }
        // It gave shard 1 up: the next scrape says so, with no pass in between.
        leases.set(spread(Map.of(0, "other_1", 1, "other_1")));
        String after = metrics.scrape();
        assertTrue(after.contains("windlass_shard_held{shard=\"1\"} 0.0") && after.contains("windlass_shards_held 0.0"), after);
    }

    private static dev.windlass.policy.shard.ShardSpread spread(Map<Integer, String> holders) {
        return new dev.windlass.policy.shard.ShardSpread(2, "me_1", new java.util.TreeMap<>(holders), new java.util.TreeMap<>(Map.of(
                "other_1", new dev.windlass.policy.shard.ShardSpread.Replica(true, new java.util.TreeSet<>()))));
    }
}
