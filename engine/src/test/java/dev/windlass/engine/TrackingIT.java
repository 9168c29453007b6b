package dev.windlass.engine;

import dev.windlass.kubetest.KubeApiServer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tracking scenarios of TrackingE2E against a real kube-apiserver, so the sandbox cannot flatter them. */
class TrackingIT {
    @TempDir Path dir;
    KubeApiServer server;

    @BeforeEach void start() { server = KubeApiServer.start(); }

    @AfterEach void stop() { server.close(); }

    TrackingScenarios scenarios(TestFleet fleet) { return new TrackingScenarios(fleet, f -> new RealBackend(server, dir), dir); }

    @Test
    void gcPoliciesAndDeletingTheApplication() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            scenarios(fleet).gcPoliciesAndDeletingTheApplication();
        }
    }

    @Test
    void applyOnce() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            scenarios(fleet).applyOnce();
        }
    }

    @Test
    void driftCorrectedAndReported() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            scenarios(fleet).driftCorrectedAndReported();
        }
    }

    @Test
    void oneOwnerPerObject() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            scenarios(fleet).oneOwnerPerObject();
        }
    }

    @Test
    void recordSurvivesARestart() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            scenarios(fleet).recordSurvivesARestart();
        }
    }
}
