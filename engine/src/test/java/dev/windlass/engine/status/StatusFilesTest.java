package dev.windlass.engine.status;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.Condition;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.InventoryEntry;
import dev.windlass.policy.state.TargetStatus;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;

class StatusFilesTest {
    static final EngineState STATE = EngineState.of("c0ffee0000000000000000000000000000000000",
            Map.of("web", new AppStatus("web", "apps/web/app.yaml", "1d7b01005e22", "c0ffee0000000000000000000000000000000000", true,
                    List.of(new Condition("Ready", "True", "Synced", "synced and healthy on 1 cluster", "2026-11-21T09:00:00Z")),
                    List.of("eu-1"),
                    List.of(new TargetStatus("eu-1", "1d7b01005e22", "Synced", "Healthy", "", List.of("Deployment web/web: spec.replicas"),
                            List.of(new InventoryEntry("apps/v1", "Deployment", "web", "web", "0123456789abcdef", "OnAppUpdate")))),
                    List.of())),
            Map.of("eu-1", new ClusterStatus("eu-1", "clusters/eu-1.yaml", "Reachable", "", "ClientSide", 3, 3, List.of())));

    @Test
    void stateSurvivesARoundTripThroughItsFiles() {
        SortedMap<String, byte[]> files = StatusFiles.render(STATE);
        assertEquals(List.of("status/apps/web.yaml", "status/clusters/eu-1.yaml", "status/fleet.yaml"), List.copyOf(files.keySet()));
        assertEquals(STATE, StatusFiles.read(files));
        assertArrayEquals(files.get("status/apps/web.yaml"), StatusFiles.render(StatusFiles.read(files)).get("status/apps/web.yaml"),
                "same state, same bytes: no commit for nothing");
    }

    @Test
    void fleetFileHasOneLinePerAppAndCluster() {
        String fleet = new String(StatusFiles.render(STATE).get(StatusFiles.FLEET), StandardCharsets.UTF_8);
        assertTrue(fleet.contains("web@eu-1: \"Synced, Healthy, 1d7b01005e22\""), fleet);
        assertTrue(fleet.contains("eu-1: \"Reachable, 3/3 nodes ready\""), fleet);
    }
}
