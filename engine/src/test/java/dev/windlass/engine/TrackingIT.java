package dev.windlass.engine;

import dev.windlass.kubetest.KubeApiServer;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** The tracking scenarios against a real kube-apiserver (server-side apply), so the sandbox cannot flatter them. */
class TrackingIT extends TrackingContract {
    KubeApiServer server;

    @BeforeEach void start() { server = KubeApiServer.start(); }

    @AfterEach void stop() { server.close(); }

    @Override Function<TestFleet, Backend> backend() { return fleet -> new RealBackend(server, dir); }
}
