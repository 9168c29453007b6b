package dev.windlass.applier.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.reads.Query;
import dev.windlass.applier.reads.WatchCache;
import dev.windlass.applier.support.MockCluster;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.SourceLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Clients built from kubeconfig files on the engine host, or registered by the engine. */
class ClusterClientsTest {

    @TempDir Path dir;

    private final MockCluster cluster = MockCluster.crud();
    private final ClusterClients clients =
            new ClusterClients(new ClientSettings(Duration.ofSeconds(2), Duration.ofSeconds(3), 0, Duration.ofMillis(100)));

    @AfterEach void stop() {
        clients.close();
        cluster.close();
    }

    @Test void connectsThroughTheNamedContextWithShortTimeouts() throws IOException {
        Path kubeconfig = kubeconfig();

        var connection = clients.connect(cluster("eu-1", new Cluster.Kubeconfig(kubeconfig.toString(), "eu-1")));

        var connected = assertInstanceOf(ClusterConnection.Connected.class, connection);
        assertTrue(connected.serverSideApply());
        var config = connected.client().getConfiguration();
        assertEquals(cluster.config().getMasterUrl(), config.getMasterUrl());
        assertEquals(3000, config.getRequestTimeout());
        assertEquals(2000, config.getConnectionTimeout());
        assertEquals(0, config.getRequestRetryBackoffLimit());
        assertEquals(null, config.getNamespace(), "the named context, not the current one");
        assertTrue(connected.client().namespaces().list().getItems().isEmpty());
    }

    @Test void everyClustersClientSharesOneJsonMappingWhichStillReadsTypedObjects() throws IOException {
        Path kubeconfig = kubeconfig();
        var eu = assertInstanceOf(ClusterConnection.Connected.class, clients.connect(cluster("eu-1", new Cluster.Kubeconfig(kubeconfig.toString(), "eu-1"))));
        clients.register("us-1", cluster.config(), false);
        var us = assertInstanceOf(ClusterConnection.Connected.class, clients.connection("us-1"));

        assertNotSame(eu.client(), us.client());
        assertSame(eu.client().getKubernetesSerialization(), us.client().getKubernetesSerialization(),
                "one mapping for the fleet: a mapping per cluster learns every kind's model again, in CPU and heap");
        us.client().configMaps().inNamespace("default").resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                .withNewMetadata().withName("shared").endMetadata().addToData("n", "1").build()).create();
        assertEquals(Map.of("n", "1"), eu.client().configMaps().inNamespace("default").withName("shared").get().getData());
    }

    @Test void theFleetsClientsShareOneSetOfEventLoopsInsteadOfStartingThreadsPerCluster() {
        long before = eventLoopThreads();
        int fleet = 20;
        for (int i = 0; i < fleet; i++) {
            clients.register("c-" + i, cluster.config(), false);
            var c = assertInstanceOf(ClusterConnection.Connected.class, clients.connection("c-" + i));
            assertTrue(c.client().namespaces().list().getItems().isEmpty());
        }
        // One set for the fleet: at most twice the cores, and the mock server's own loops (as many again).
        long started = eventLoopThreads() - before;
        assertTrue(started <= 4L * Runtime.getRuntime().availableProcessors(), started + " event-loop threads for " + fleet + " clusters");
    }

    @Test void theFleetsWatchesDeliverTheirEventsOnOneSetOfThreadsInsteadOfAPoolPerCluster() {
        var configMaps = cluster.client().configMaps().inNamespace("default");
        configMaps.resource(configMap("there-before")).create();
        Query query = Query.of("v1", "ConfigMap").inNamespace("default");
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        int fleet = 40;
        for (int i = 0; i < fleet; i++) {
            clients.register("c-" + i, cluster.config(), false);
            var c = assertInstanceOf(ClusterConnection.Connected.class, clients.connection("c-" + i));
            assertEquals(1, c.reads().read(query).size(), "the first read finds an object and opens the watch");
        }

        configMaps.resource(configMap("made-behind-the-engine")).create();
        assertTrue(clients.awaitCurrent(Duration.ofSeconds(30)));

        for (int i = 0; i < fleet; i++) {
            var c = assertInstanceOf(ClusterConnection.Connected.class, clients.connection("c-" + i));
            assertTrue(((WatchCache) c.reads()).answersFromWatch(query), "c-" + i + " reads from its watch");
            assertEquals(Set.of("there-before", "made-behind-the-engine"), c.reads().read(query).stream()
                    .map(body -> ((Map<?, ?>) body.get("metadata")).get("name")).collect(java.util.stream.Collectors.toSet()),
                    "c-" + i + "'s watch delivered the new object");
        }
        // The clients' threads are daemons (the mock API server's, a timer per watch, are not). Event loops are counted
        // above; every other thread the fleet's clients started runs their tasks, such as reading and storing events.
        List<String> started = Thread.getAllStackTraces().keySet().stream().filter(t -> !before.contains(t) && t.isDaemon())
                .map(Thread::getName).filter(name -> !name.startsWith("vert.x-")).toList();
        int tasks = Math.max(4, Runtime.getRuntime().availableProcessors());
        assertTrue(started.size() <= tasks + 2, started.size() + " threads for " + fleet + " clusters' watches: " + started);
    }

    private static io.fabric8.kubernetes.api.model.ConfigMap configMap(String name) {
        return new io.fabric8.kubernetes.api.model.ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().build();
    }

    private static long eventLoopThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("vert.x-eventloop-thread-")).count();
    }

    @Test void unchangedClusterKeepsItsClientAndChangedOneGetsANewOne() throws IOException {
        Path kubeconfig = kubeconfig();
        var first = clients.connect(cluster("eu-1", new Cluster.Kubeconfig(kubeconfig.toString(), "eu-1")));

        var again = clients.connect(cluster("eu-1", new Cluster.Kubeconfig(kubeconfig.toString(), "eu-1")));
        var changed = clients.connect(cluster("eu-1", new Cluster.Kubeconfig(kubeconfig.toString(), null)));

        assertSame(first, again);
        assertNotSame(first, changed);
        assertSame(changed, clients.connection("eu-1"));
        var current = assertInstanceOf(ClusterConnection.Connected.class, changed);
        assertEquals("other", current.client().getConfiguration().getNamespace(), "no context: the current one");
    }

    /** A token rotated in the file (as a mounted Secret is updated in place) is used from the next pass that connects the fleet. */
    @Test void aKubeconfigRewrittenInPlaceIsConnectedWithOnTheNextPass() throws Exception {
        Path kubeconfig = kubeconfig();
        Cluster eu = cluster("eu-1", new Cluster.Kubeconfig(kubeconfig.toString(), "eu-1"));
        var first = assertInstanceOf(ClusterConnection.Connected.class, clients.connect(eu));
        first.client().namespaces().list();
        assertEquals("Bearer not-a-secret", lastAuthorization());

        Files.writeString(kubeconfig, Files.readString(kubeconfig).replace("not-a-secret", "rotated-token"));
        var second = assertInstanceOf(ClusterConnection.Connected.class, clients.connect(eu));
        second.client().namespaces().list();

        assertNotSame(first, second);
        assertEquals("Bearer rotated-token", lastAuthorization());
        assertSame(second, clients.connect(eu), "the same file again: the same client");
    }

    /** A kubeconfig that is not there yet is connected once it is, without a change to the Cluster. */
    @Test void aKubeconfigThatAppearsLaterIsConnectedOnTheNextPass() throws IOException {
        Path kubeconfig = dir.resolve("kubeconfig.yaml");
        Cluster eu = cluster("eu-1", new Cluster.Kubeconfig(kubeconfig.toString(), "eu-1"));
        assertInstanceOf(ClusterConnection.Broken.class, clients.connect(eu));

        kubeconfig();

        var connected = assertInstanceOf(ClusterConnection.Connected.class, clients.connect(eu));
        assertTrue(connected.client().namespaces().list().getItems().isEmpty());
    }

    /** A kubeconfig deleted from under a connected cluster breaks it, naming the path, as a deleted Secret does. */
    @Test void aKubeconfigDeletedLaterBreaksTheConnectionByName() throws IOException {
        Path kubeconfig = kubeconfig();
        Cluster eu = cluster("eu-1", new Cluster.Kubeconfig(kubeconfig.toString(), "eu-1"));
        assertInstanceOf(ClusterConnection.Connected.class, clients.connect(eu));

        Files.delete(kubeconfig);

        var broken = assertInstanceOf(ClusterConnection.Broken.class, clients.connect(eu));
        assertEquals("kubeconfig " + kubeconfig + " does not exist", broken.message());
    }

    private String lastAuthorization() throws InterruptedException {
        String last = null;
        for (var r = cluster.server().takeRequest(200, java.util.concurrent.TimeUnit.MILLISECONDS); r != null;
             r = cluster.server().takeRequest(50, java.util.concurrent.TimeUnit.MILLISECONDS)) {
            last = r.getHeader("Authorization");
        }
        return last;
    }

    @Test void missingKubeconfigIsABrokenConnectionNotAnException() {
        var connection = clients.connect(cluster("eu-1", new Cluster.Kubeconfig(dir.resolve("nope.yaml").toString(), null)));

        var broken = assertInstanceOf(ClusterConnection.Broken.class, connection);
        assertTrue(broken.message().contains("nope.yaml"), broken.message());
    }

    @Test void sandboxClusterIsConnectedOnlyOnceTheEngineRegisteredIt() {
        Cluster sandbox = cluster("sandbox-1", new Cluster.Sandbox(3, 1));
        assertInstanceOf(ClusterConnection.Broken.class, clients.connect(sandbox));

        clients.registerSandbox("sandbox-1", cluster.config());

        var connected = assertInstanceOf(ClusterConnection.Connected.class, clients.connect(sandbox));
        assertEquals(false, connected.serverSideApply());
        assertEquals(3000, connected.client().getConfiguration().getRequestTimeout());
    }

    private Path kubeconfig() throws IOException {
        String server = cluster.config().getMasterUrl();
        return Files.writeString(dir.resolve("kubeconfig.yaml"), """
                apiVersion: v1
                kind: Config
                clusters:
                - name: mock
                  cluster: {server: "%s"}
                users:
                - name: ops
                  user: {token: not-a-secret}
                contexts:
                - name: eu-1
                  context: {cluster: mock, user: ops}
                - name: elsewhere
                  context: {cluster: mock, user: ops, namespace: other}
                current-context: elsewhere
                """.formatted(server));
    }

    private static Cluster cluster(String name, Cluster.Connection connection) {
        return new Cluster(name, Map.of(), connection, false, 300, SourceLocation.file("clusters/" + name + ".yaml"));
    }

    /** A kubeconfig path names a file on the engine's host: only files inside the kubeconfig directory are read. */
    @Test void aPathOutsideTheKubeconfigDirectoryIsNotReadAtAll(@TempDir Path elsewhere) throws IOException {
        Path confined = Files.createDirectories(dir.resolve("kubeconfigs"));
        Path secret = Files.writeString(elsewhere.resolve("id_rsa"), "PRIVATE KEY MATERIAL\n");
        Path link = Files.createSymbolicLink(confined.resolve("sneaky.yaml"), secret);
        ClusterClients strict = new ClusterClients(ClientSettings.DEFAULT.confinedTo(confined));
        try {
            for (Path p : new Path[] {secret, link, confined.resolve("../../" + elsewhere.getFileName() + "/id_rsa")}) {
                var broken = assertInstanceOf(ClusterConnection.Broken.class,
                        strict.connect(cluster("eu-" + p.hashCode(), new Cluster.Kubeconfig(p.toString(), null))));
                assertTrue(broken.message().contains("is outside the kubeconfig directory " + confined), broken.message());
                assertTrue(!broken.message().contains("PRIVATE KEY"), broken.message());
            }
        } finally {
            strict.close();
        }
    }

    /** What the client says of a file it cannot use can quote the file: the message keeps only the kind of failure. */
    @Test void anUnusableKubeconfigIsNamedButNeverQuoted() throws IOException {
        Path notAKubeconfig = Files.writeString(dir.resolve("passwords.txt"), "root:s3cr3t-value\nadmin: [unclosed\n");

        var broken = assertInstanceOf(ClusterConnection.Broken.class,
                clients.connect(cluster("eu-9", new Cluster.Kubeconfig(notAKubeconfig.toString(), "prod"))));

        assertTrue(broken.message().startsWith("unusable kubeconfig " + notAKubeconfig + " (context prod): "), broken.message());
        assertTrue(!broken.message().contains("s3cr3t") && !broken.message().contains("unclosed"), broken.message());
    }
}
