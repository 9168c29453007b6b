package dev.windlass.engine;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link HookScenario} on a real control plane (API server, controller-manager, scheduler, a kwok node), one for the class. */
class HooksIT {
    @TempDir Path dir;

    @Test
    void hooksRunAtTheirPlaceInASyncAndGateWhatFollows() throws Exception {
        try (TestFleet fleet = new TestFleet(dir, true)) {
            HookScenario.run(fleet);
        }
    }
}
