package dev.windlass.applier;

import static dev.windlass.applier.support.Fixtures.configMap;
import static dev.windlass.applier.support.Fixtures.create;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.cluster.ClientSettings;
import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.applier.support.MockCluster;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import dev.windlass.policy.plan.Stage;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A hung cluster (it accepts connections and never answers) beside a live one, with a long observation deadline: the
 * pass stops waiting for it soon after its peer answered (or, alone, at its own allowance) and reports it unreachable, the next pass does not wait for it at all and
 * sends it no request but a background probe, and a plan's writes to it are skipped without a request while the live
 * cluster's are made.
 */
class HungClusterTest {

    private static final ClientSettings CLIENT = new ClientSettings(Duration.ofSeconds(2), Duration.ofSeconds(60), 0, Duration.ofMillis(100));
    private static final ApplierSettings SETTINGS = new ApplierSettings(8, Duration.ofSeconds(60), Duration.ofSeconds(60), Duration.ZERO,
            Duration.ofSeconds(6), 4, Duration.ofSeconds(6), Duration.ofHours(1), Duration.ofSeconds(1));  // a loaded CI machine still answers in time
    private static final Set<KindRef> CONFIG_MAPS = Set.of(new KindRef("v1", "ConfigMap"));

    private final MockCluster live = MockCluster.crud();
    private final AtomicInteger connections = new AtomicInteger();
    /** The request lines the hung cluster read (it reads them, and never answers). */
    private final List<String> requests = java.util.Collections.synchronizedList(new ArrayList<>());
    private final List<Socket> held = new ArrayList<>();
    private ServerSocket hung;
    private Applier applier;

    @BeforeEach void start() throws IOException {
        live.client().namespaces().list();
        hung = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        Thread acceptor = new Thread(() -> {
            while (!hung.isClosed()) {
                try {
                    Socket s = hung.accept();
                    connections.incrementAndGet();
                    synchronized (held) {
                        held.add(s);
                    }
                    Thread reader = new Thread(() -> readRequestLine(s), "hung-cluster-reader");
                    reader.setDaemon(true);
                    reader.start();
                } catch (IOException e) {
                    return;
                }
            }
        }, "hung-cluster");
        acceptor.setDaemon(true);
        acceptor.start();
        ClusterClients clients = new ClusterClients(CLIENT);
        clients.register("live", live.config(), true);
        clients.register("hung", new ConfigBuilder(Config.empty()).withMasterUrl("http://127.0.0.1:" + hung.getLocalPort()).build(), true);
        applier = new Applier(clients, SETTINGS);
    }

    private void readRequestLine(Socket s) {
        try {
            String line = new java.io.BufferedReader(new java.io.InputStreamReader(s.getInputStream(), java.nio.charset.StandardCharsets.US_ASCII))
                    .readLine();
            if (line != null) requests.add(line);
        } catch (IOException e) {
            // closed by the test's end
        }
    }

    /** The requests that would have changed something on the hung cluster. */
    private List<String> writes() {
        synchronized (requests) {
            return requests.stream().filter(r -> !r.startsWith("GET ")).toList();
        }
    }

    @AfterEach void stop() throws IOException {
        applier.close();
        hung.close();
        synchronized (held) {
            for (Socket s : held) s.close();
        }
        live.close();
    }

    @Test void aHungClusterIsWaitedForOnlyAsLongAsItsPeersWarrantThenNotAtAll() {
        applier.observe(Map.of("live", CONFIG_MAPS));  // the live cluster's client warmed up, as in a running engine
        ObservedState first = applier.observe(Map.of("live", CONFIG_MAPS, "hung", CONFIG_MAPS));
        assertTrue(first.cluster("live").reachable(), first.cluster("live").message());
        assertFalse(first.cluster("hung").reachable());
        // Given up on by the peer rule (at least 1 s; more when the live cluster was slow), not after its own 6 s.
        assertTrue(first.cluster("hung").message().matches("did not answer within \\d+m?s, while 1 of the pass's 1 other clusters answered .*"),
                first.cluster("hung").message());
        assertFalse(first.cluster("hung").message().startsWith("did not answer within 6s"), first.cluster("hung").message());

        int before = connections.get();
        ObservedState second = applier.observe(Map.of("live", CONFIG_MAPS, "hung", CONFIG_MAPS));
        assertTrue(second.cluster("live").reachable());
        assertEquals(first.cluster("hung").message(), second.cluster("hung").message(), "reported from what is known, not asked again");
        assertTrue(connections.get() - before <= 1, "at most the one background probe reached it");

        Stage stage = new Stage("apply", "", List.of(create("hung", configMap("demo", "a", "1")), create("live", configMap("demo", "a", "1"))));
        List<ActionResult> results = applier.executeStages(List.of(stage));
        assertEquals(Outcome.Failed, results.get(0).outcome());
        assertTrue(results.get(0).transientFailure());
        assertTrue(results.get(0).message().startsWith("skipped: cluster hung " + first.cluster("hung").message()), results.get(0).message());
        assertEquals(Outcome.Created, results.get(1).outcome(), "the live cluster is written as usual");
        assertEquals(List.of(), writes(), "nothing written to the hung cluster (a background probe may read it)");
    }

    @Test void aHungClusterWithNoPeersIsWaitedForItsOwnAllowance() {
        ObservedState alone = applier.observe(Map.of("hung", CONFIG_MAPS));

        assertFalse(alone.cluster("hung").reachable());
        assertTrue(alone.cluster("hung").message().startsWith("did not answer within 6s (it usually takes"), alone.cluster("hung").message());
    }

    @Test void eachClusterGoesThroughItsStagesWithoutWaitingForAnother() {
        Stage apply = new Stage("apply", "", List.of(create("live", configMap("demo", "a", "1")), create("live", configMap("demo", "b", "1"))));
        Stage prune = new Stage("prune", "every apply on the same cluster succeeded",
                List.of(dev.windlass.applier.support.Fixtures.delete("live", new dev.windlass.policy.model.ObjectRef("", "ConfigMap", "demo", "a"))));

        List<ActionResult> results = applier.executeStages(List.of(apply, prune));

        assertEquals(List.of(Outcome.Created, Outcome.Created, Outcome.Deleted), results.stream().map(ActionResult::outcome).toList());
        assertEquals(List.of(apply.actions().get(0), apply.actions().get(1), prune.actions().get(0)), results.stream().map(ActionResult::action).toList(),
                "results in the plan's order");
    }
}
