package dev.windlass.engine.status;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.Condition;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.EvictionTask;
import dev.windlass.policy.state.FailoverMemory;
import dev.windlass.policy.state.FailoverRecord;
import dev.windlass.policy.state.InventoryEntry;
import dev.windlass.policy.state.PreservedValue;
import dev.windlass.policy.state.TargetStatus;
import java.time.Instant;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;

class StatusFilesTest {
    static final EngineState STATE = EngineState.of("c0ffee0000000000000000000000000000000000",
            Map.of("web", new AppStatus("web", "apps/web/app.yaml", "1d7b01005e22", "c0ffee0000000000000000000000000000000000", true,
                    List.of(new Condition("Ready", Condition.Status.True, "Synced", "synced and healthy on 1 cluster", java.time.Instant.parse("2026-11-21T09:00:00Z"))),
                    List.of("eu-1"),
                    List.of(new TargetStatus("eu-1", "1d7b01005e22", dev.windlass.policy.state.Sync.Synced, dev.windlass.policy.state.Health.Healthy, "", List.of("Deployment web/web: spec.replicas"),
                            List.of(new InventoryEntry("apps/v1", "Deployment", "web", "web", "0123456789abcdef", dev.windlass.policy.model.Manifest.GcPolicy.ON_APP_UPDATE)))),
                    List.of())),
            Map.of("eu-1", new ClusterStatus("eu-1", "clusters/eu-1.yaml", dev.windlass.policy.state.Reachability.Reachable, "", "ClientSide", 3, 3, List.of())));

    @Test
    void stateSurvivesARoundTripThroughItsFiles() throws Exception {
        SortedMap<String, byte[]> files = StatusFiles.render(STATE);
        assertEquals(List.of("status/apps/web.yaml", "status/clusters/eu-1.yaml", "status/fleet.yaml"), List.copyOf(files.keySet()));
        assertEquals(STATE, StatusFiles.read(files));
        assertArrayEquals(files.get("status/apps/web.yaml"), StatusFiles.render(StatusFiles.read(files)).get("status/apps/web.yaml"),
                "same state, same bytes: no commit for nothing");
    }

    /** Failover memory, a target's failover fields and a cluster's health clocks, all set. */
    static final EngineState FAILOVER_STATE = EngineState.of("c0ffee0000000000000000000000000000000000",
            Map.of("stream", new AppStatus("stream", "apps/stream/app.yaml", "5e22aa", "c0ffee0000000000000000000000000000000000", true,
                    List.of(new Condition("Ready", Condition.Status.True, "Synced", "synced and healthy on 2 clusters", java.time.Instant.parse("2026-11-21T09:00:00Z"))),
                    List.of("eu-2", "us-1"),
                    List.of(new TargetStatus("eu-2", "5e22aa", dev.windlass.policy.state.Sync.Synced, dev.windlass.policy.state.Health.Degraded, "1 of 3 replicas ready", List.of(),
                            List.of(new InventoryEntry("apps/v1", "StatefulSet", "stream", "ingest", "0123456789abcdef", dev.windlass.policy.model.Manifest.GcPolicy.ON_APP_UPDATE)),
                            Instant.parse("2026-11-21T09:10:00Z"),
                            List.of(new PreservedValue("windlass.dev/offset", "4711", "apps/StatefulSet stream/ingest")),
                            List.of(new PreservedValue("windlass.dev/offset", "4700", "apps/StatefulSet stream/ingest")))),
                    List.of(), null, List.of(), null, List.of(),
                    new FailoverMemory(
                            List.of(new EvictionTask("eu-1", dev.windlass.policy.state.EvictionReason.ClusterUnreachable, dev.windlass.policy.model.FailoverPolicy.PurgeMode.Gracefully, 600, List.of("eu-1", "us-1"),
                                            List.of("eu-2", "us-1"), List.of(new PreservedValue("windlass.dev/offset", "4700",
                                            "apps/StatefulSet stream/ingest")), List.of("$.status.lag matched nothing"),
                                            Instant.parse("2026-11-21T09:05:00Z"), null, null, EvictionTask.Purge.Pending),
                                    new EvictionTask("ap-1", dev.windlass.policy.state.EvictionReason.ApplicationFailure, dev.windlass.policy.model.FailoverPolicy.PurgeMode.Never, null, List.of("ap-1"), List.of("us-1"),
                                            List.of(), List.of(), Instant.parse("2026-11-20T08:00:00Z"), Instant.parse("2026-11-20T08:03:10Z"), null, EvictionTask.Purge.Orphaned)),
                            List.of(new FailoverRecord(List.of("ap-1"), List.of("us-1"), dev.windlass.policy.state.EvictionReason.ApplicationFailure, Instant.parse("2026-11-20T08:00:00Z"),
                                    Instant.parse("2026-11-20T08:03:10Z"), List.of(), null)),
                            List.of(new FailoverRecord(List.of("eu-1", "us-1"), List.of("eu-3", "us-1"), dev.windlass.policy.state.EvictionReason.ClusterNotReady,
                                    Instant.parse("2026-11-19T07:00:00Z"), Instant.parse("2026-11-19T07:02:00Z"),
                                    List.of(new PreservedValue("windlass.dev/offset", "4600", "apps/StatefulSet stream/ingest")),
                                    "eu-3 failed too before it was healthy")),
                            List.of("ap-1")))),
            Map.of("eu-1", new ClusterStatus("eu-1", "clusters/eu-1.yaml", dev.windlass.policy.state.Reachability.Unreachable, "connection refused", "ClientSide", 0, 0,
                            List.of(), dev.windlass.policy.state.ClusterState.ClusterUnreachable, Instant.parse("2026-11-21T09:04:00Z"), null),
                    "eu-2", new ClusterStatus("eu-2", "clusters/eu-2.yaml", dev.windlass.policy.state.Reachability.Reachable, "", "ClientSide", 3, 3, List.of(),
                            dev.windlass.policy.state.ClusterState.Healthy, null, Instant.parse("2026-11-01T00:00:00Z"))));

    @Test
    void failoverMemoryAndHealthClocksSurviveARoundTrip() throws Exception {
        SortedMap<String, byte[]> files = StatusFiles.render(FAILOVER_STATE);
        EngineState read = StatusFiles.read(files);
        assertEquals(FAILOVER_STATE, read);
        assertEquals(FAILOVER_STATE.apps().get("stream").failoverMemory(), read.apps().get("stream").failoverMemory());
        SortedMap<String, byte[]> again = StatusFiles.render(read);
        assertEquals(files.keySet(), again.keySet());
        files.forEach((path, bytes) -> assertArrayEquals(bytes, again.get(path), "same state, same bytes: " + path));
        String app = new String(files.get("status/apps/stream.yaml"), StandardCharsets.UTF_8);
        assertFalse(app.contains("empty:"), "no derived properties in the file:\n" + app);
        assertFalse(app.contains("inFlight") || app.contains("replacements"), app);
    }

    /** An application imported from Flux, with the Kustomization it is read from, as the plan names it. */
    static final EngineState IMPORTED = EngineState.of("c0ffee0000000000000000000000000000000000",
            Map.of("web", STATE.apps().get("web").withOrigin(new dev.windlass.policy.model.ImportOrigin(dev.windlass.policy.model.ImportOrigin.Tool.Flux,
                    "Kustomization", "apps", new dev.windlass.policy.model.SourceLocation("clusters/staging/apps.yaml", 2, 1)))),
            STATE.clusters());

    @Test
    void theOriginOfAnImportedApplicationSurvivesARoundTripAndAnUnknownToolIsRefused() throws Exception {
        SortedMap<String, byte[]> files = StatusFiles.render(IMPORTED);
        String app = new String(files.get("status/apps/web.yaml"), StandardCharsets.UTF_8);
        assertTrue(app.contains("origin:\n  tool: Flux\n  kind: Kustomization\n  name: apps\n  path: clusters/staging/apps.yaml\n  line: 2\n  column: 1\n"), app);
        assertEquals(IMPORTED, StatusFiles.read(files));
        assertFalse(new String(StatusFiles.render(STATE).get("status/apps/web.yaml"), StandardCharsets.UTF_8).contains("origin"), "a native one has none");

        SortedMap<String, byte[]> unknown = new java.util.TreeMap<>(files);
        unknown.put("status/apps/web.yaml", app.replace("tool: Flux", "tool: Jenkins").getBytes(StandardCharsets.UTF_8));
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> StatusFiles.read(unknown));
        assertTrue(String.valueOf(e.getMessage()).contains("origin.tool: 'Jenkins' is not one of Flux, ArgoCD"), String.valueOf(e.getMessage()));

        SortedMap<String, byte[]> more = new java.util.TreeMap<>(files);
        more.put("status/apps/web.yaml", app.replace("  column: 1\n", "  column: 1\n  revision: \"v2\"\n").getBytes(StandardCharsets.UTF_8));
        Exception f = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> StatusFiles.read(more));
        assertTrue(String.valueOf(f.getMessage()).contains("origin.revision"), String.valueOf(f.getMessage()));
    }

    @Test
    void appWithoutFailoverMemoryHasNoFailoverKey() throws Exception {
        String app = new String(StatusFiles.render(STATE).get("status/apps/web.yaml"), StandardCharsets.UTF_8);
        assertFalse(app.contains("failover"), app);
        assertEquals(FailoverMemory.EMPTY, StatusFiles.read(StatusFiles.render(STATE)).apps().get("web").failoverMemory());
    }

    @Test
    void fleetFileHasOneLinePerAppAndCluster() throws Exception {
        String fleet = new String(StatusFiles.render(STATE).get(StatusFiles.FLEET), StandardCharsets.UTF_8);
        assertTrue(fleet.contains("web@eu-1: \"Synced, Healthy, 1d7b01005e22\""), fleet);
        assertTrue(fleet.contains("eu-1: \"Reachable, 3/3 nodes ready\""), fleet);
    }
}
