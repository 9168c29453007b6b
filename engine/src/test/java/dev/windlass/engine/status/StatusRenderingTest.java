package dev.windlass.engine.status;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.TargetStatus;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Rendering pass after pass writes YAML only for what changed, and gives the bytes rendering from nothing gives. */
class StatusRenderingTest {
    final StatusRendering rendering = new StatusRendering();

    @Test
    void onlyChangedFilesAreWrittenAgainAndTheBytesAreTheSame() throws Exception {
        EngineState first = StatusFilesTest.STATE;
        assertSameFiles(StatusFiles.render(first), rendering.render(first));
        assertEquals(3, rendering.renderedLastPass(), "the first pass writes every file");

        assertSameFiles(StatusFiles.render(first), rendering.render(StatusFiles.read(StatusFiles.render(first))));
        assertEquals(0, rendering.renderedLastPass(), "an equal state, read back from its own files, writes nothing");

        EngineState degraded = withWebHealth(first, dev.windlass.policy.state.Health.Degraded);
        SortedMap<String, byte[]> files = rendering.render(degraded);
        assertSameFiles(StatusFiles.render(degraded), files);
        assertEquals(2, rendering.renderedLastPass(), "web's file and the fleet summary, not the cluster's");
        assertEquals(dev.windlass.policy.state.Health.Degraded, StatusFiles.read(files).apps().get("web").targets().get(0).health());
    }

    @Test
    void aFileWhoseAppIsGoneIsNoLongerRendered() throws Exception {
        rendering.render(StatusFilesTest.STATE);
        EngineState none = EngineState.of(StatusFilesTest.STATE.source(), Map.of(), StatusFilesTest.STATE.clusters(), java.util.Set.of());
        SortedMap<String, byte[]> files = rendering.render(none);
        assertEquals(List.of("status/clusters/eu-1.yaml", "status/fleet.yaml"), List.copyOf(files.keySet()));
        assertSameFiles(StatusFiles.render(none), files);
    }

    private static EngineState withWebHealth(EngineState state, dev.windlass.policy.state.Health health) {
        AppStatus web = state.apps().get("web");
        TargetStatus t = web.targets().get(0);
        TargetStatus changed = new TargetStatus(t.cluster(), t.revision(), t.sync(), health, "1 of 2 replicas ready", t.drift(), t.inventory());
        AppStatus app = new AppStatus(web.name(), web.definedIn(), web.revision(), web.source(), web.prune(), web.conditions(),
                web.placement(), List.of(changed), web.diagnostics(), web.rollout(), web.invalidRevisions(), web.lastGood(),
                web.rollouts(), web.failover());
        Map<String, AppStatus> apps = new TreeMap<>(state.apps());
        apps.put("web", app);
        return EngineState.of(state.source(), apps, state.clusters(), state.policyFiles());
    }

    private static void assertSameFiles(SortedMap<String, byte[]> expected, SortedMap<String, byte[]> actual) {
        assertEquals(expected.keySet(), actual.keySet());
        expected.forEach((path, bytes) -> assertArrayEquals(bytes, actual.get(path), path));
    }
}
