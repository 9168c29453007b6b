package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.cluster.ClientSettings;
import dev.windlass.engine.lease.LeaseSettings;
import dev.windlass.engine.lease.Leadership;
import dev.windlass.engine.reconcile.Engine;
import dev.windlass.engine.reconcile.PassAbandoned;
import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.git.GitRemote;
import dev.windlass.git.Mirror;
import dev.windlass.kubetest.Await;
import dev.windlass.kubetest.KubeApiServer;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two engines, one config repo and status branch, the same member clusters (sandbox), and one Lease on a real API
 * server. Only the holder runs passes; a holder whose renewals stop is fenced before the other takes the lease over,
 * and once it runs again it writes nothing: neither a status commit nor a cluster write.
 */
class LeaderElectionIT {
    static final Path EXAMPLES = Path.of("..", "examples-repo");
    static final String NAMESPACE = "default";
    static final String LEASE = "windlass";
    static KubeApiServer management;

    @TempDir Path dir;

    @BeforeAll static void start() { management = KubeApiServer.start(); }

    @AfterAll static void stop() { if (management != null) management.close(); }

    /** Short timings so the test waits seconds: a 6 s lease, renewed every second, written on for 4 s after a renewal. */
    static LeaseSettings settings(String identity) {
        return new LeaseSettings(NAMESPACE, LEASE, identity, Duration.ofSeconds(6), Duration.ofSeconds(4), Duration.ofSeconds(1),
                Duration.ofSeconds(2));
    }

    @Test
    void onlyTheHolderWritesAndAFrozenHolderIsFencedBeforeItsSuccessorTakesOver() throws Exception {
        try (TestFleet fleet = new TestFleet(dir);
             KubernetesClient client = management.newClient();
             FreezableExecutor renewalsA = new FreezableExecutor();
             FreezableExecutor renewalsB = new FreezableExecutor();
             Leadership a = new Leadership(client, settings("replica-a"), renewalsA);
             Leadership b = new Leadership(client, settings("replica-b"), renewalsB);
             Engine engineA = engine(fleet, "engine-a", a);
             Engine engineB = engine(fleet, "engine-b", b)) {
            fleet.push("add the fleet", TestFleet.folder(EXAMPLES, ""));
            a.start(engineA.reconciler()::readStatusAgain);
            Await.until(Duration.ofSeconds(20), "replica-a holds the lease", () -> holder(client), "replica-a"::equals);
            // The API server answers replica-a's write a moment before replica-a's elector hears the answer.
            Await.until(Duration.ofSeconds(10), "replica-a knows it holds the lease", a::leading, leading -> leading);
            b.start(engineB.reconciler()::readStatusAgain);
            settle(fleet, engineA);

            // The standby runs no pass: no status commit, no cluster write.
            fleet.push("web 1.5.0", c -> c.write("apps/web/manifests/deployment.yaml",
                    ReconcileLoopE2E.read(EXAMPLES.resolve("apps/web/manifests/deployment.yaml")).replace("web:1.4.2", "web:1.5.0")));
            int commits = fleet.statusLog().size();
            fleet.resetRequestCounts();
            assertThrows(PassAbandoned.class, engineB.reconciler()::reconcile);
            assertEquals(commits, fleet.statusLog().size());
            assertEquals(0, fleet.writes());

            // The holder's renewals stop. Its fence closes before the other replica may take the lease over.
            renewalsA.freeze();
            long frozen = System.nanoTime();
            long fenced = 0;
            long takenOver = 0;
            while (takenOver == 0 && System.nanoTime() - frozen < Duration.ofSeconds(30).toNanos()) {
                if (fenced == 0 && a.refusal().isPresent()) fenced = System.nanoTime();
                if ("replica-b".equals(holder(client))) takenOver = System.nanoTime();
                Thread.sleep(20);
            }
            assertTrue(takenOver > 0, "replica-b took the lease over");
            assertTrue(fenced > 0 && fenced < takenOver, "replica-a stopped writing before replica-b held the lease");
            System.out.printf("takeover: replica-a fenced %d ms after its renewals froze; replica-b held the lease %d ms after (lease 6 s)%n",
                    (fenced - frozen) / 1_000_000, (takenOver - frozen) / 1_000_000);

            // The frozen holder comes back (its renewal thread is still stopped, it has not even heard it lost the lease).
            assertTrue(a.leading(), "replica-a has not seen the new holder yet");
            commits = fleet.statusLog().size();
            fleet.resetRequestCounts();
            assertThrows(PassAbandoned.class, engineA.reconciler()::reconcile);
            assertEquals(commits, fleet.statusLog().size(), "no status commit from the stale holder");
            assertEquals(0, fleet.writes(), "no cluster write from the stale holder");

            // The new holder applies the change and records it.
            Await.until(Duration.ofSeconds(10), "replica-b may write", () -> b.refusal().isEmpty(), ok -> ok);
            PassReport r = engineB.reconciler().reconcile();
            assertTrue(r.committed(), "replica-b recorded its pass");
            assertTrue(fleet.writes() > 0, "replica-b applied web 1.5.0");

            // Thawed, the old holder sees the new one and stands by: still no write.
            renewalsA.thaw();
            Await.until(Duration.ofSeconds(10), "replica-a saw it lost the lease", a::leading, leading -> !leading);
            fleet.push("web 1.5.1", c -> c.write("apps/web/manifests/deployment.yaml",
                    ReconcileLoopE2E.read(EXAMPLES.resolve("apps/web/manifests/deployment.yaml")).replace("web:1.4.2", "web:1.5.1")));
            commits = fleet.statusLog().size();
            fleet.resetRequestCounts();
            assertThrows(PassAbandoned.class, engineA.reconciler()::reconcile);
            assertEquals(commits, fleet.statusLog().size());
            assertEquals(0, fleet.writes());
            assertEquals("replica-b", holder(client));
            engineB.reconciler().reconcile();  // the holder goes on
            assertFalse(b.refusal().isPresent());
        }
    }

    private static Engine engine(TestFleet fleet, String name, Leadership fence) throws Exception {
        return new Engine(Mirror.open(fleet.origin.resolveSibling(name), GitRemote.anonymous(fleet.origin.toString())), "main",
                "windlass/status", fleet.sandbox, fleet.clock, System::getenv, ClientSettings.DEFAULT, fence);
    }

    /** Passes of {@code engine}, time moving on, until one changes nothing. */
    private static void settle(TestFleet fleet, Engine engine) throws Exception {
        for (int i = 0; i < 40; i++) {
            engine.awaitWatchesCurrent(Duration.ofSeconds(10));
            PassReport r = engine.reconciler().reconcile();
            if (!r.committed() && !r.plan().hasChanges() && r.plan().held().isEmpty()) return;
            fleet.backend.advance(fleet.clock, Duration.ofSeconds(5));
        }
        throw new AssertionError("did not settle");
    }

    /** The Lease's holder as the API server has it. */
    private static String holder(KubernetesClient client) {
        Lease lease = client.resources(Lease.class).inNamespace(NAMESPACE).withName(LEASE).get();
        return lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    }
}
