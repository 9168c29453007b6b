package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.Applier;
import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.engine.reconcile.ClusterFleet;
import dev.windlass.engine.reconcile.Engine;
import dev.windlass.engine.reconcile.Fleet;
import dev.windlass.engine.reconcile.Reconciler;
import dev.windlass.git.GitRemote;
import dev.windlass.git.Mirror;
import dev.windlass.git.RetryPolicy;
import dev.windlass.git.StatusWriter;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Stage;
import dev.windlass.policy.state.AppStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An engine killed at each step of a failover, and started again, finishes that failover exactly once:
 * one eviction, one apply to the new cluster, one history entry.
 */
class FailoverRestartE2E {
    static final String INGEST = "/apis/apps/v1/namespaces/stream/deployments/ingest";

    @TempDir Path dir;

    /** A fleet whose engine process dies around the first apply: before it, or right after it. */
    static final class Dies implements Fleet {
        private final ClusterFleet real;
        private final boolean afterApplying;

        Dies(ClusterFleet real, boolean afterApplying) {
            this.real = real;
            this.afterApplying = afterApplying;
        }

        @Override public void connect(Map<String, Cluster> clusters) { real.connect(clusters); }

        @Override public ObservedState observe(Map<String, Set<KindRef>> kinds) { return real.observe(kinds); }

        @Override public ObservedState observe(Map<String, Set<KindRef>> kinds, Map<String, Set<KindRef>> targets) {
            return real.observe(kinds, targets);
        }

        @Override public List<ActionResult> execute(Stage stage, Set<String> clusters) {
            if (afterApplying) real.execute(stage, clusters);
            throw new IllegalStateException("killed");
        }

        @Override public List<ActionResult> dryRun(Stage stage, Set<String> clusters) { return List.of(); }

        @Override public void close() { }
    }

    /** eu-1 down past the toleration, and one engine pass that dies as {@code dies} says. */
    TestFleet downAndKilled(boolean afterApplying) throws Exception {
        TestFleet fleet = FailoverContract.startIn(dir, false, "Gracefully", 10, "", FailoverContract.ONE_PROD_CLUSTER);
        fleet.cluster("eu-1").down(true);
        FailoverContract.after(fleet, 5);
        fleet.clock.advance(Duration.ofSeconds(60));
        ClusterClients clients = new ClusterClients();
        try (Mirror mirror = Mirror.open(dir.resolve("dying"), GitRemote.anonymous(fleet.origin.toString()))) {
            Reconciler dying = new Reconciler(mirror, "main", new StatusWriter(mirror, "windlass/status", RetryPolicy.DEFAULT),
                    new Dies(new ClusterFleet(clients, new Applier(clients), dev.windlass.engine.reconcile.SandboxSupply.of(fleet.sandbox)), afterApplying), fleet.clock);
            assertThrows(IllegalStateException.class, dying::reconcile);
        } finally {
            clients.close();
        }
        assertTrue(fleet.statusLog().get(0).getFullMessage().startsWith("windlass: stream failover eu-1 → eu-2 started (ClusterUnreachable)"),
                "the eviction is recorded before the kill: " + fleet.statusLog().get(0).getFullMessage());
        return fleet;
    }

    Engine restart(TestFleet fleet, String name) throws Exception {
        return new Engine(Mirror.open(dir.resolve(name), GitRemote.anonymous(fleet.origin.toString())), "main", "windlass/status",
                fleet.sandbox, fleet.clock);
    }

    static AppStatus stream(Engine engine) throws Exception { return engine.reconciler().state().apps().get("stream"); }

    /** Runs the restarted engine until the failover is in the history, then a while longer. */
    static void finish(TestFleet fleet, Engine engine) throws Exception {
        for (int i = 0; i < 20 && stream(engine).failoverMemory().history().isEmpty(); i++) {
            fleet.clock.advance(Duration.ofSeconds(10));
            fleet.sandbox.simulator().tick(fleet.clock.instant());
            engine.reconciler().reconcile();
        }
        for (int i = 0; i < 5; i++) {
            fleet.clock.advance(Duration.ofSeconds(10));
            fleet.sandbox.simulator().tick(fleet.clock.instant());
            engine.reconciler().reconcile();
        }
    }

    static long commitsContaining(TestFleet fleet, String text) throws Exception {
        return fleet.statusLog().stream().filter(c -> c.getFullMessage().contains(text)).count();
    }

    void assertFinishedOnce(TestFleet fleet, Engine engine, long creates) throws Exception {
        AppStatus s = stream(engine);
        assertEquals(List.of("eu-2"), s.placement());
        assertEquals(1, s.failoverMemory().history().size(), s.failoverMemory().toString());
        assertEquals(1, s.failoverMemory().evictions().size(), "one eviction");
        assertEquals(1, commitsContaining(fleet, "stream failover eu-1 → eu-2 started"), "started once");
        assertEquals(1, commitsContaining(fleet, "stream failover eu-1 → eu-2 (ClusterUnreachable) healthy after"), "completed once");
        assertEquals(creates, fleet.cluster("eu-2").requests().count("POST", "/apis/apps/v1/namespaces/stream/deployments"),
                "the new copy is created once in all");
        assertNotNull(FailoverContract.ingest(fleet, "eu-2", "stream"));
    }

    @Test
    void killedBetweenRecordingTheEvictionAndApplying() throws Exception {
        try (TestFleet fleet = downAndKilled(false)) {
            assertNull(FailoverContract.ingest(fleet, "eu-2", "stream"), "nothing applied before the kill");
            try (Engine engine = restart(fleet, "after-kill")) {
                finish(fleet, engine);
                assertFinishedOnce(fleet, engine, 1);
            }
        }
    }

    @Test
    void killedAfterApplyingBeforeRecordingTheOutcome() throws Exception {
        try (TestFleet fleet = downAndKilled(true)) {
            assertNotNull(FailoverContract.ingest(fleet, "eu-2", "stream"), "applied before the kill");
            fleet.resetRequestCounts();
            try (Engine engine = restart(fleet, "after-kill")) {
                finish(fleet, engine);
                assertFinishedOnce(fleet, engine, 0);
            }
        }
    }

    @Test
    void restartedAfterTheFailoverCompletedNothingIsRepeatedAndTheOldCopyGoesWhenItAnswers() throws Exception {
        try (TestFleet fleet = downAndKilled(false)) {
            try (Engine engine = restart(fleet, "first-restart")) {
                finish(fleet, engine);
            }
            fleet.resetRequestCounts();
            try (Engine engine = restart(fleet, "second-restart")) {
                fleet.cluster("eu-1").down(false);
                finish(fleet, engine);
                assertFinishedOnce(fleet, engine, 0);
                assertNull(FailoverContract.ingest(fleet, "eu-1", "stream"), "Gracefully, failover done: removed once eu-1 answers");
                assertEquals(1, fleet.cluster("eu-1").requests().count("DELETE", INGEST));
            }
        }
    }
}
