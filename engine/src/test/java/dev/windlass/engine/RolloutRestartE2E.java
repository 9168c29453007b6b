package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import dev.windlass.policy.state.ClusterStep;
import dev.windlass.policy.state.RolloutState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An engine killed mid-rollout and started again continues the same rollout: no wave twice, none
 * skipped, never more than maxConcurrency at once.
 */
class RolloutRestartE2E {
    static final String WEB = "/apis/apps/v1/namespaces/web/deployments/web";

    @TempDir Path dir;

    /** The engine process dies the moment it would send anything to a cluster. */
    static final class DiesBeforeApplying implements Fleet {
        private final ClusterFleet real;

        DiesBeforeApplying(ClusterFleet real) { this.real = real; }

        @Override public void connect(Map<String, Cluster> clusters) { real.connect(clusters); }

        @Override public ObservedState observe(Map<String, Set<KindRef>> kinds) { return real.observe(kinds); }

        @Override public List<ActionResult> execute(Stage stage, Set<String> clusters) { throw new IllegalStateException("killed"); }

        @Override public List<ActionResult> dryRun(Stage stage, Set<String> clusters) { return List.of(); }

        @Override public void close() { }
    }

    Engine restart(TestFleet fleet, String name) throws Exception {
        return new Engine(Mirror.open(dir.resolve(name), GitRemote.anonymous(fleet.origin.toString())), "main", "windlass/status",
                fleet.sandbox, fleet.clock);
    }

    static RolloutState rollout(Engine engine) throws Exception {
        return engine.reconciler().state().apps().get("web").rollout();
    }

    static void tick(TestFleet fleet) {
        fleet.clock.advance(Duration.ofSeconds(10));
        fleet.sandbox.simulator().tick(fleet.clock.instant());
    }

    @Test
    void killedBetweenRecordingAndApplying() throws Exception {
        try (TestFleet fleet = new RolloutE2E().startIn(dir, "Pause")) {
            fleet.push("web 1.5.0", c -> c.write(RolloutContract.DEPLOYMENT, RolloutContract.web("1.5.0")));
            ClusterClients clients = new ClusterClients();
            try (Mirror mirror = Mirror.open(dir.resolve("dying"), GitRemote.anonymous(fleet.origin.toString()))) {
                Reconciler dying = new Reconciler(mirror, "main", new StatusWriter(mirror, "windlass/status", RetryPolicy.DEFAULT),
                        new DiesBeforeApplying(new ClusterFleet(clients, new Applier(clients), dev.windlass.engine.reconcile.SandboxSupply.of(fleet.sandbox))), fleet.clock);
                assertThrows(IllegalStateException.class, dying::reconcile);
            } finally {
                clients.close();
            }
            assertTrue(fleet.statusLog().get(0).getFullMessage().contains("wave 1/3 started on eu-1"), "recorded before the crash");
            assertEquals("1.4.2", RolloutContract.image(fleet, "eu-1"), "nothing applied before the crash");

            fleet.resetRequestCounts();
            try (Engine engine = restart(fleet, "after-crash")) {
                engine.reconciler().reconcile();
                assertEquals("1.5.0", RolloutContract.image(fleet, "eu-1"), "the recorded step is applied after the restart");
                assertEquals(1, fleet.cluster("eu-1").requests().count("PATCH", WEB), "applied once");
                assertEquals(0, fleet.cluster("eu-2").requests().count("PATCH", WEB), "no second cluster started: maxConcurrency 1");
                RolloutState r = rollout(engine);
                assertEquals(ClusterStep.State.Progressing, r.step("eu-1").state());
                assertEquals(ClusterStep.State.Pending, r.step("eu-2").state());
                String started = r.revision() + " wave 1/3 started on eu-1";
                assertEquals(1, fleet.statusLog().stream().filter(c -> c.getFullMessage().contains(started)).count(),
                        "the step is not started a second time");
            }
        }
    }

    @Test
    void killedBetweenWaves() throws Exception {
        try (TestFleet fleet = new RolloutE2E().startIn(dir, "Pause")) {
            fleet.push("web 1.5.0", c -> c.write(RolloutContract.DEPLOYMENT, RolloutContract.web("1.5.0")));
            fleet.pass();
            for (int i = 0; i < 20 && rollout(fleet.engine).step("eu-1").state() != ClusterStep.State.Succeeded; i++) {
                tick(fleet);
                fleet.pass();
            }
            assertEquals(ClusterStep.State.Succeeded, rollout(fleet.engine).step("eu-1").state(), "wave 1 done before the kill");
            // The pass that saw eu-1 succeed also started eu-2 (a slot freed up): the kill comes right after it.
            assertEquals(ClusterStep.State.Progressing, rollout(fleet.engine).step("eu-2").state());
            fleet.resetRequestCounts();
            List<String> started = new ArrayList<>();
            try (Engine engine = restart(fleet, "after-kill")) {
                for (int i = 0; i < 40 && rollout(engine).active(); i++) {
                    tick(fleet);
                    engine.reconciler().reconcile();
                    for (ClusterStep s : rollout(engine).clusters()) {
                        if (s.state() != ClusterStep.State.Pending && !started.contains(s.cluster())) started.add(s.cluster());
                    }
                    assertTrue(rollout(engine).clusters().stream().filter(s -> s.state() == ClusterStep.State.Progressing).count() <= 1);
                }
                assertEquals(RolloutState.Result.Succeeded, rollout(engine).result());
            }
            assertEquals(List.of("eu-1", "eu-2", "us-1"), started);
            assertEquals(0, fleet.cluster("eu-1").requests().count("PATCH", WEB), "wave 1 is not applied again");
            assertEquals(0, fleet.cluster("eu-2").requests().count("PATCH", WEB), "wave 2, already applied, is not applied again");
            assertEquals(1, fleet.cluster("us-1").requests().count("PATCH", WEB));
        }
    }
}
