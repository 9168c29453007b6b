package dev.windlass.engine;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tracking scenarios on sandbox clusters (the same ones run against a real API server in TrackingIT). */
class TrackingE2E {
    @TempDir Path dir;

    TrackingScenarios scenarios(TestFleet fleet) { return new TrackingScenarios(fleet, SandboxBackend::new, dir); }

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
