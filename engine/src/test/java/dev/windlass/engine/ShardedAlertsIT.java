package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.windlass.applier.cluster.ClientSettings;
import dev.windlass.engine.alerts.AlertSettings;
import dev.windlass.engine.alerts.DeliverySettings;
import dev.windlass.engine.alerts.Receiver;
import dev.windlass.engine.lease.LeaseSettings;
import dev.windlass.engine.lease.ShardLeases;
import dev.windlass.engine.reconcile.Engine;
import dev.windlass.git.GitRemote;
import dev.windlass.git.Mirror;
import dev.windlass.kubetest.Await;
import dev.windlass.kubetest.KubeApiServer;
import dev.windlass.policy.state.RolloutState;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alerts with two replicas holding a shard each (Leases on a real API server): each event is sent by the replica that
 * recorded its change, once, from the outbox of the shard that owns it.
 */
class ShardedAlertsIT {
    static final Path EXAMPLES = Path.of("..", "examples-repo");
    static final Map<String, Integer> PINS = Map.of("eu-1", 0, "eu-2", 1, "us-1", 1);
    static final String KEY = "shard-key";
    static KubeApiServer management;

    @TempDir Path dir;

    @BeforeAll static void start() { management = KubeApiServer.start(); }

    @AfterAll static void stop() { if (management != null) management.close(); }

    static final String ALERTS = """
            apiVersion: windlass.dev/v1alpha1
            kind: Provider
            metadata: {name: hook}
            spec: {type: webhook, address: "%s", secretRef: {name: hook}}
            ---
            apiVersion: windlass.dev/v1alpha1
            kind: Alert
            metadata: {name: all}
            spec: {providerRef: {name: hook}, eventKinds: [WaveStarted, RolloutCompleted, ClusterUnreachable, ClusterReachable]}
            """;

    Engine engine(TestFleet fleet, String name, ShardLeases shards) throws Exception {
        Engine e = new Engine(Mirror.open(dir.resolve(name), GitRemote.anonymous(fleet.origin.toString())), "main", "windlass/status", fleet.sandbox,
                fleet.clock, System::getenv, ClientSettings.DEFAULT, shards);
        e.alertWith(new AlertSettings(dir.resolve("secrets"), true, null,
                new DeliverySettings(Duration.ofSeconds(1), Duration.ofMillis(100), Duration.ofMillis(500), 100, 100)));
        return e;
    }

    static void pass(Engine e) throws Exception {
        e.awaitWatchesCurrent(Duration.ofSeconds(10));
        e.reconciler().reconcile();
    }

    @Test
    void eachEventIsSentOnceByTheReplicaThatRecordedIt() throws Exception {
        Files.createDirectories(dir.resolve("secrets/hook"));
        Files.writeString(dir.resolve("secrets/hook/hmacKey"), KEY);
        try (Receiver receiver = new Receiver(KEY);
             TestFleet fleet = new TestFleet(dir.resolve("fleet"));
             KubernetesClient client = management.newClient();
             ShardLeases a = ShardLeases.stand(client, settings("replica-a"), 2, new TreeSet<>(Set.of(0)), s -> {});
             ShardLeases b = ShardLeases.stand(client, settings("replica-b"), 2, new TreeSet<>(Set.of(1)), s -> {});
             Engine engineA = engine(fleet, "engine-a", a);
             Engine engineB = engine(fleet, "engine-b", b)) {
            Await.until(Duration.ofSeconds(20), "each replica holds its preferred shard",
                    () -> ShardedEnginesIT.holder(client, 0) + " " + ShardedEnginesIT.holder(client, 1), "replica-a replica-b"::equals);
            fleet.push("the fleet, pinned to two shards, with waves", c -> {
                c = TestFleet.folder(EXAMPLES, "").apply(c).write("policies/rollout.yaml", RolloutContract.policy("Pause"));
                for (var pin : PINS.entrySet()) {
                    c = c.write("clusters/" + pin.getKey() + ".yaml", ReconcileLoopE2E.read(EXAMPLES.resolve("clusters/" + pin.getKey() + ".yaml"))
                            + "  shard: " + pin.getValue() + "\n");
                }
                return c;
            });
            for (int i = 0; i < 12; i++) {
                pass(engineB);
                pass(engineA);
                fleet.backend.advance(fleet.clock, Duration.ofSeconds(5));
            }
            fleet.push("alerts", c -> c.write("alerts/alerts.yaml", ALERTS.formatted(receiver.address())));

            fleet.push("web 1.5.0", c -> c.write(RolloutContract.DEPLOYMENT, RolloutContract.web("1.5.0")));
            for (int i = 0; i < 60 && !done(engineA); i++) {
                pass(engineB);
                pass(engineA);
                fleet.backend.advance(fleet.clock, Duration.ofSeconds(10));
            }
            assertEquals(RolloutState.Result.Succeeded, engineA.reconciler().state().apps().get("web").rollout().result());
            // us-1 (shard 1) stops answering, then answers again: replica b records it, and tells of it.
            fleet.backend.down("us-1", true);
            pass(engineB);
            pass(engineA);
            fleet.backend.down("us-1", false);
            for (int i = 0; i < 3; i++) {
                fleet.backend.advance(fleet.clock, Duration.ofSeconds(5));
                pass(engineB);
                pass(engineA);
            }
            Await.until(Duration.ofSeconds(20), "the webhook has every event", () -> receiver.accepted.size(), n -> n >= 6);
            // Two more rounds of passes record what was delivered; nothing is left to send, so nothing more can arrive.
            for (int i = 0; i < 2; i++) {
                pass(engineB);
                pass(engineA);
            }
            Await.until(Duration.ofSeconds(20), "both replicas to have nothing pending", () -> pending(engineA) + pending(engineB), n -> n == 0);

            List<String> got = receiver.accepted.stream().map(ShardedAlertsIT::describe).toList();
            assertEquals(6, got.size(), got.toString());
            assertEquals(6, new HashSet<>(receiver.accepted.stream().map(n -> n.get("id").asText()).toList()).size(), "each once: " + got);
            assertEquals(List.of("WaveStarted 1", "WaveStarted 2", "WaveStarted 3", "RolloutCompleted"),
                    got.stream().filter(g -> !g.startsWith("Cluster")).toList(), "the coordinator's, in order");
            assertEquals(List.of("ClusterUnreachable us-1", "ClusterReachable us-1"), got.stream().filter(g -> g.startsWith("Cluster")).toList());

            String shard0 = fleet.statusFile("status/alerts/shard-0.yaml");
            String shard1 = fleet.statusFile("status/alerts/shard-1.yaml");
            assertNotNull(shard0);
            assertNotNull(shard1);
            assertNull(fleet.statusFile("status/alerts.yaml"), "no unsharded outbox");
            assertEquals(4, count(shard0, "state: Delivered"), shard0);
            assertEquals(2, count(shard1, "state: Delivered"), shard1);
            assertTrue(shard1.contains("kind: ClusterUnreachable") && !shard1.contains("kind: WaveStarted"), shard1);
            assertEquals(List.of(), receiver.refused);
        }
    }

    static String describe(JsonNode n) {
        JsonNode d = n.get("data");
        String kind = n.get("type").asText().replace("dev.windlass.alert.", "");
        if (d.has("wave")) return kind + " " + d.get("wave").asInt();
        if (kind.startsWith("Cluster")) return kind + " " + d.get("cluster").asText();
        return kind;
    }

    static int count(String text, String what) { return text.split(java.util.regex.Pattern.quote(what), -1).length - 1; }

    static boolean done(Engine e) throws Exception {
        var web = e.reconciler().state().apps().get("web");
        return web != null && web.rollout() != null && web.rollout().result() == RolloutState.Result.Succeeded && web.rollout().revision().equals(web.revision());
    }

    static LeaseSettings settings(String identity) { return ShardedEnginesIT.settings(identity); }

    private static long pending(Engine engine) {
        return engine.reconciler().deliveries().stream().filter(d -> d.state() == dev.windlass.engine.alerts.Delivery.State.Pending).count();
    }
}
