package dev.windlass.sandbox;

import dev.windlass.sandbox.sim.Simulator;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Requests that reach a cluster are counted as reads and writes; the simulator's own traffic is not. */
class RequestLogTest {

    private Sandbox sandbox;
    private SandboxCluster cluster;
    private KubernetesClient client;

    @BeforeEach void start() {
        sandbox = new Sandbox();
        cluster = sandbox.add("east", 2, 1);
        client = cluster.newClient();
    }

    @AfterEach void stop() {
        client.close();
        sandbox.close();
    }

    @Test void createsAreWritesAndGetsAndListsAreReads() {
        RequestLog log = cluster.requests();
        assertEquals(0, log.total(), "attaching the cluster created its nodes without a network request");

        for (int i = 0; i < 5; i++) {
            client.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("cm-" + i).endMetadata()
                    .addToData("k", "v").build()).create();
        }
        assertEquals(5, log.writes());
        assertEquals(5, log.count("POST"));
        assertEquals(5, log.count("post", "/api/v1/namespaces/default/configmaps"));
        assertEquals(0, log.reads());

        client.configMaps().withName("cm-0").get();
        client.configMaps().list();
        client.configMaps().withLabel("app", "x").list();
        assertEquals(3, log.reads());
        assertEquals(2, log.count("GET", "/api/v1/namespaces/default/configmaps"), "query strings are dropped");
        assertEquals(5, log.writes());

        client.configMaps().withName("cm-1").delete();
        assertEquals(6, log.writes());
        assertEquals(1, log.count("DELETE"));
        assertEquals(9, log.total());

        log.reset();
        assertEquals(0, log.total());
        assertEquals(0, log.writes());
        assertEquals(0, log.reads());
    }

    @Test void simulatorTicksAreNotCounted() {
        Simulator sim = sandbox.simulator();
        client.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("x").endMetadata().build())
                .create();
        cluster.requests().reset();
        sim.tick(Instant.now());
        sim.tick(Instant.now().plusSeconds(10));
        assertEquals(0, cluster.requests().total());
    }

    @Test void snapshotListsEveryCountedRequest() {
        client.nodes().list();
        assertEquals(Long.valueOf(1), cluster.requests().snapshot().get(new RequestLog.Entry("GET", "/api/v1/nodes")));
    }
}
