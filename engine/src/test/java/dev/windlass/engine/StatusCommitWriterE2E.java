package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.cluster.ClientSettings;
import dev.windlass.applier.cluster.ManagementCluster;
import dev.windlass.engine.reconcile.Engine;
import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.engine.reconcile.SandboxSupply;
import dev.windlass.engine.reconcile.Shards;
import dev.windlass.git.GitRemote;
import dev.windlass.git.Mirror;
import dev.windlass.policy.fence.WriteFence;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every status commit a pass makes names its writer: the replica's identity and the shards the pass held, or
 * {@code unsharded}, as trailers of the real Git commit on the status branch.
 */
class StatusCommitWriterE2E {
    @TempDir Path dir;

    @Test
    void anEngineThatIsNotShardedNamesItselfAndTheWholeFleet() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            pushFleet(fleet);
            try (Engine engine = engine(fleet, "alone", WriteFence.OPEN, "windlass-0_1a2b3c4d")) {
                PassReport first = pass(engine);
                assertTrue(first.committed(), "the first sync is recorded");
                fleet.push("reports: a second ConfigMap", c -> c.write("apps/reports/manifests/more.yaml", configMap("more")));
                assertTrue(pass(engine).committed(), "the change is recorded");

                List<RevCommit> log = fleet.statusLog();
                assertEquals(2, log.size(), messages(log));
                for (RevCommit c : log) {
                    assertEquals(List.of("windlass-0_1a2b3c4d"), trailer(c, "Windlass-Replica"), c.getFullMessage());
                    assertEquals(List.of("unsharded"), trailer(c, "Windlass-Shards"), c.getFullMessage());
                }
            }
        }
    }

    @Test
    void aShardedPassNamesTheShardsItHeld() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            pushFleet(fleet);
            Held shards = new Held(3, new TreeSet<>(List.of(0, 2)));
            try (Engine engine = engine(fleet, "sharded", shards, "windlass-1_9f8e7d6c")) {
                PassReport first = pass(engine);
                assertTrue(first.committed(), "the first sync of shards 0 and 2 is recorded");
                shards.held = new TreeSet<>(List.of(1));
                fleet.push("reports: a second ConfigMap", c -> c.write("apps/reports/manifests/more.yaml", configMap("more")));
                assertTrue(pass(engine).committed(), "shard 1's first sync is recorded");

                List<RevCommit> log = fleet.statusLog();  // newest first
                assertEquals(2, log.size(), messages(log));
                assertEquals(List.of("windlass-1_9f8e7d6c"), trailer(log.get(1), "Windlass-Replica"), log.get(1).getFullMessage());
                assertEquals(List.of("0,2"), trailer(log.get(1), "Windlass-Shards"), log.get(1).getFullMessage());
                assertEquals(List.of("windlass-1_9f8e7d6c"), trailer(log.get(0), "Windlass-Replica"), log.get(0).getFullMessage());
                assertEquals(List.of("1"), trailer(log.get(0), "Windlass-Shards"), log.get(0).getFullMessage());
            }
        }
    }

    /** Three clusters pinned to shards 0, 1 and 2; one application on all of them. */
    private static void pushFleet(TestFleet fleet) throws Exception {
        fleet.push("three clusters, one app", c -> c
                .write("clusters/eu-1.yaml", fleet.clusterYaml("eu-1", "", 1, 0, "shard: 0"))
                .write("clusters/eu-2.yaml", fleet.clusterYaml("eu-2", "", 1, 0, "shard: 1"))
                .write("clusters/us-1.yaml", fleet.clusterYaml("us-1", "", 1, 0, "shard: 2"))
                .write("apps/reports/app.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: reports}\n"
                        + "spec:\n  namespace: reports\n  placement: {clusterSelector: {}}\n")
                .write("apps/reports/manifests/settings.yaml", configMap("settings")));
    }

    private static String configMap(String name) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + name + "}\ndata: {level: info}\n";
    }

    private static PassReport pass(Engine engine) throws Exception {
        engine.awaitWatchesCurrent(Duration.ofSeconds(10));
        return engine.reconciler().reconcile();
    }

    private static Engine engine(TestFleet fleet, String name, WriteFence fence, String replica) throws Exception {
        return new Engine(Mirror.open(fleet.origin.resolveSibling(name), GitRemote.anonymous(fleet.origin.toString())), "main",
                "windlass/status", SandboxSupply.of(fleet.sandbox), fleet.clock, System::getenv, ClientSettings.DEFAULT, fence,
                ManagementCluster.NONE, replica);
    }

    /** The values of a trailer as Git reads them from the commit message. */
    private static List<String> trailer(RevCommit c, String key) {
        return c.getFooterLines(key);
    }

    private static String messages(List<RevCommit> log) {
        return String.join("\n---\n", log.stream().map(RevCommit::getFullMessage).toList());
    }

    /** Shards whose leases this replica holds, as the test says: the lease machinery is ShardedEnginesIT's. */
    static final class Held implements Shards {
        private final int count;
        volatile SortedSet<Integer> held;

        Held(int count, SortedSet<Integer> held) {
            this.count = count;
            this.held = held;
        }

        @Override public int count() { return count; }

        @Override public SortedSet<Integer> writable() { return held; }

        @Override public void passOn(SortedSet<Integer> shards) {}

        @Override public String describe() { return "holds " + held + " of " + count; }

        @Override public Optional<String> refusal() { return Optional.empty(); }
    }
}
