package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.applier.observe.Observer;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.sandbox.Sandbox;
import dev.windlass.sandbox.SandboxCluster;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The observer's /readyz probe against a sandbox cluster whose API server is made not ready, and made ready again. */
class SandboxReadinessTest {

    private static final Set<KindRef> CONFIG_MAPS = Set.of(new KindRef("v1", "ConfigMap"));

    private final Sandbox sandbox = new Sandbox();
    private final ClusterClients clients = new ClusterClients();
    private final Observer observer = new Observer(clients);

    @AfterEach void stop() {
        clients.close();
        sandbox.close();
    }

    @Test void notReadyApiServerIsReachableAndNamedUntilItRecovers() {
        SandboxCluster eu1 = sandbox.add("eu-1", 2, 1);
        clients.registerSandbox("eu-1", eu1.config());

        ClusterObservation ready = observer.observe("eu-1", CONFIG_MAPS);
        assertTrue(ready.reachable(), ready.message());
        assertEquals("", ready.notReady());

        eu1.apiNotReady(true);
        eu1.requests().reset();
        ClusterObservation failing = observer.observe("eu-1", CONFIG_MAPS);
        assertTrue(failing.reachable(), "the API still answers: " + failing.message());
        assertEquals("", failing.message());
        assertEquals("/readyz answered 500: [-]etcd failed: reason withheld", failing.notReady());
        assertEquals(2, failing.nodes().size(), "the rest of the cluster is observed as usual");
        assertEquals(1, eu1.requests().count("GET", "/readyz"), "one probe a pass, not retried: " + eu1.requests());

        eu1.apiNotReady(false);
        assertEquals("", observer.observe("eu-1", CONFIG_MAPS).notReady());
    }

    @Test void downClusterIsUnreachableNotMerelyNotReady() {
        SandboxCluster eu1 = sandbox.add("eu-1", 1, 1);
        clients.registerSandbox("eu-1", eu1.config());
        eu1.apiNotReady(true);
        eu1.down(true);

        ClusterObservation seen = observer.observe("eu-1", CONFIG_MAPS);

        assertFalse(seen.reachable());
        assertEquals("", seen.notReady());
    }
}
