package dev.windlass.engine;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tracking scenarios, run by each backend's test class (sandbox: TrackingE2E, real API server: TrackingIT). */
abstract class TrackingContract {
    @TempDir Path dir;

    /** Real control planes, or the sandbox. */
    abstract boolean real();

    private void run(ScenarioStep step) throws Exception {
        try (TestFleet fleet = new TestFleet(dir, real())) {
            step.run(new TrackingScenarios(fleet, dir));
        }
    }

    interface ScenarioStep {
        void run(TrackingScenarios s) throws Exception;
    }

    @Test void gcPoliciesAndDeletingTheApplication() throws Exception { run(TrackingScenarios::gcPoliciesAndDeletingTheApplication); }

    @Test void applyOnce() throws Exception { run(TrackingScenarios::applyOnce); }

    @Test void driftCorrectedAndReported() throws Exception { run(TrackingScenarios::driftCorrectedAndReported); }

    @Test void secretStringDataIsNotDrift() throws Exception { run(TrackingScenarios::secretStringDataIsNotDrift); }

    @Test void oneOwnerPerObject() throws Exception { run(TrackingScenarios::oneOwnerPerObject); }

    @Test void anOwnerStaysTheOwnerWhenANewcomerClaimsItsObject() throws Exception { run(TrackingScenarios::anOwnerStaysTheOwnerWhenANewcomerClaimsItsObject); }

    @Test void recordSurvivesARestart() throws Exception { run(TrackingScenarios::recordSurvivesARestart); }
}
