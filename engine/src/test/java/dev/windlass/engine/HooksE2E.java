package dev.windlass.engine;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link HookScenario} on a sandbox cluster. */
class HooksE2E {
    @TempDir Path dir;

    @Test
    void hooksRunAtTheirPlaceInASyncAndGateWhatFollows() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            HookScenario.run(fleet);
        }
    }
}
