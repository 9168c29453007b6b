package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.Engine;
import dev.windlass.git.GitRemote;
import dev.windlass.git.Mirror;
import dev.windlass.policy.state.ClusterStatus;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two engines on one config repo and one status branch, each with its own mirror, on the same (sandbox) clusters. An
 * engine whose status is older than what the other recorded never overwrites the other's entry: its write conflicts, it
 * reads the status again and records its pass on top.
 */
class TwoWritersE2E {
    static final Path EXAMPLES = Path.of("..", "examples-repo");

    @TempDir Path dir;

    @Test
    void aStaleEngineKeepsTheOtherEnginesOutageClock() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            fleet.push("add the fleet", TestFleet.folder(EXAMPLES, ""));
            fleet.settle();
            MutableClock clockB = new MutableClock(fleet.clock.instant());
            try (Engine b = new Engine(Mirror.open(dir.resolve("engine-b"), GitRemote.anonymous(fleet.origin.toString())), "main",
                    "windlass/status", fleet.sandbox, clockB)) {
                b.reconciler().reconcile();
                assertNull(b.reconciler().state().clusters().get("us-1").unhealthySince(), "both engines saw us-1 healthy");

                // Engine A (the fleet's) sees us-1 go down and starts its outage clock.
                fleet.cluster("us-1").down(true);
                fleet.passAfter(Duration.ofMinutes(1));
                java.time.Instant since = fleet.engine.reconciler().state().clusters().get("us-1").unhealthySince();
                assertEquals(fleet.clock.instant(), since);
                int commits = fleet.statusLog().size();

                // Engine B, two minutes later by its clock, still remembers us-1 healthy: alone it would start the clock anew.
                clockB.advance(Duration.ofMinutes(3));
                b.reconciler().reconcile();

                ClusterStatus recorded = b.reconciler().state().clusters().get("us-1");
                assertEquals(since, recorded.unhealthySince(), "B read A's entry again instead of overwriting it");
                String file = fleet.statusFile("status/clusters/us-1.yaml");
                assertTrue(file.contains(since.toString()), file);
                assertTrue(fleet.statusLog().size() <= commits + 1, "at most one commit for B's pass");
            } finally {
                fleet.cluster("us-1").down(false);
            }
        }
    }
}
