package dev.windlass.applier.support;

import dev.windlass.sandbox.WatchCleanUp;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.internal.MockDispatcher;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.TimeUnit;

/** A mock API server over real HTTP on 127.0.0.1, with a client for it that fails fast. */
public final class MockCluster implements AutoCloseable {

    /** The mock server logs every request through java.util.logging; held strongly so the level sticks. */
    private static final java.util.logging.Logger MOCK_LOG = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

    static {
        MOCK_LOG.setLevel(java.util.logging.Level.WARNING);
    }

    private final KubernetesMockServer server;
    private final KubernetesClient client;

    private MockCluster(KubernetesMockServer server) {
        this.server = server;
        start(server);
        this.client = new KubernetesClientBuilder().withConfig(config()).build();
    }

    /** Objects are stored and served back (CRUD mode), with merge patches per RFC 7386. */
    public static MockCluster crud() {
        return new MockCluster(new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                WatchCleanUp.around(new MergePatchCrudDispatcher()), false));
    }

    /** Only what was set up with {@link #server()}{@code .expect()} is answered; anything else is a 404. */
    public static MockCluster expectations() {
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        return new MockCluster(new KubernetesMockServer(new Context(), new MockWebServer(), responses,
                WatchCleanUp.around(new MockDispatcher(responses)), false));
    }

    /** Expectations first, then CRUD (with the stock merge patch) for anything not expected. */
    public static MockCluster mixed() {
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        return new MockCluster(new KubernetesMockServer(new Context(), new MockWebServer(), responses,
                WatchCleanUp.around(new KubernetesMixedDispatcher(responses)), false));
    }

    public KubernetesMockServer server() { return server; }

    public KubernetesClient client() { return client; }

    public Config config() {
        return new ConfigBuilder(Config.empty()).withMasterUrl(server.url("/")).withRequestRetryBackoffLimit(0)
                .withConnectionTimeout(2000).withRequestTimeout(5000).build();
    }

    /** The requests received since the last call, as {@code METHOD path}, so tests can assert what was written. */
    public List<String> takeRequests() {
        List<String> seen = new ArrayList<>();
        try {
            for (RecordedRequest r = server.takeRequest(50, TimeUnit.MILLISECONDS); r != null;
                 r = server.takeRequest(50, TimeUnit.MILLISECONDS)) {
                seen.add(r.getMethod() + " " + r.getPath());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return seen;
    }

    @Override public void close() {
        client.close();
        server.destroy();
    }

    private static void start(KubernetesMockServer server) {
        try {
            server.init(InetAddress.getByName("127.0.0.1"), 0);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
