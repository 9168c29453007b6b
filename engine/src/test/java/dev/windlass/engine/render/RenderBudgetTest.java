package dev.windlass.engine.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.source.MapSnapshot;
import dev.windlass.render.RenderLimits;
import dev.windlass.render.RenderTools;
import dev.windlass.render.Renderer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What renders may print is sized to the engine's heap: one render a sixteenth of it, and the renders of one commit
 * together a sixteenth too. A chart past either fails its own application, with the size and the limit said at its Chart.yaml; the
 * applications beside it render and stay valid. (What a render prints is also read into objects,
 * applied, and watched on the clusters, each a copy of about its size.)
 */
class RenderBudgetTest {

    @Test
    void theLimitsFollowTheHeap() {
        RenderLimits small = RenderLimits.forHeap(512L << 20);
        assertEquals(32 << 20, small.maxOutputBytes(), "a sixteenth of a 512 MiB heap");
        assertEquals((512L << 20) / 16, small.maxTotalBytes(), "a sixteenth of it for a commit's renders together too");
        assertEquals(64 << 20, RenderLimits.forHeap(4L << 30).maxOutputBytes(), "never over 64 MiB for one render");
        assertEquals(4 << 20, RenderLimits.forHeap(32L << 20).maxOutputBytes(), "never under 4 MiB");
    }

    @Test
    void aChartPastTheHeapsShareFailsItsApplicationWithTheSizeAndTheLimit() {
        // A 64 MiB heap: 4 MiB for one render. The chart prints about 5 MiB.
        RenderLimits limits = RenderLimits.forHeap(64L << 20);
        AppRendering rendering = new AppRendering(new Renderer(RenderTools.fromEnvironment(), limits));
        MapSnapshot repo = repo(Map.of("huge", 2_000, "web", 10));
        DesiredState d = rendering.read(repo);
        assertFalse(d.apps().get("huge").valid());
        assertTrue(d.apps().get("web").valid(), "the application beside it renders");
        String error = d.diagnostics().stream().map(Object::toString).filter(s -> s.contains("huge")).findFirst().orElseThrow();
        assertEquals("charts/huge/Chart.yaml:1:1: application huge does not render for lab (variant default): helm wrote more than 4 MiB, the most"
                + " one render may print in this engine (a sixteenth of its 64 MiB heap); render less, or give the engine more memory (-Xmx, or the"
                + " container's memory limit)", error);
    }

    @Test
    void theRendersOfOneCommitTogetherStayWithinTheirShareAndTheLaterOnesFailAlone() {
        // Each chart prints about 1.2 MiB; together the commit may print 3 MiB: the third and fourth, by name, are held.
        RenderLimits limits = new RenderLimits(2, Duration.ofSeconds(60), 2 << 20, 3 << 20, 18L << 20);
        AppRendering rendering = new AppRendering(new Renderer(RenderTools.fromEnvironment(), limits));
        Map<String, Integer> apps = new LinkedHashMap<>();
        for (String name : List.of("a", "b", "c", "d")) apps.put(name, 480);
        apps.put("web", 10);
        MapSnapshot repo = repo(apps);
        DesiredState d = rendering.read(repo);
        assertTrue(d.apps().get("a").valid());
        assertTrue(d.apps().get("b").valid());
        assertFalse(d.apps().get("c").valid());
        assertFalse(d.apps().get("d").valid());
        assertTrue(d.apps().get("web").valid(), "a small chart still fits");
        String error = d.diagnostics().stream().map(Object::toString).filter(s -> s.startsWith("charts/c/")).findFirst().orElseThrow();
        assertTrue(error.matches("charts/c/Chart\\.yaml:1:1: application c does not render for lab \\(variant default\\): renders 1\\.\\d MiB, and with the"
                + " renders before it this commit's renders would print over 3\\.0 MiB, the most this engine keeps at once \\(a sixteenth of its heap\\);"
                + " render less, or give the engine more memory \\(-Xmx, or the container's memory limit\\)"), error);

        long runs = rendering.toolRuns();
        DesiredState again = rendering.read(repo);
        assertEquals(runs, rendering.toolRuns(), "the next pass runs no tool: the renders with no room are remembered by size, not run again");
        assertEquals(d.diagnostics(), again.diagnostics());
    }

    /** One cluster; per application a chart of its own printing {@code count} ConfigMaps of about 2.5 KiB each. */
    private static MapSnapshot repo(Map<String, Integer> apps) {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("clusters/lab.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: lab}\nspec: {connection: {sandbox: {nodes: 1}}}\n");
        apps.forEach((name, count) -> {
            files.put("apps/" + name + "/app.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: " + name + "}\nspec:\n"
                    + "  namespace: " + name + "\n  placement: {clusterNames: [lab]}\n  source: {helm: {chart: charts/" + name + "}}\n");
            files.put("charts/" + name + "/Chart.yaml", "apiVersion: v2\nname: " + name + "\nversion: 0.1.0\n");
            files.put("charts/" + name + "/values.yaml", "count: " + count + "\n");
            files.put("charts/" + name + "/templates/cms.yaml", """
                    {{- $pad := repeat 2400 "x" }}
                    {{- range $i := until (int .Values.count) }}
                    ---
                    apiVersion: v1
                    kind: ConfigMap
                    metadata: {name: cm-{{ $i }}}
                    data: {pad: {{ $pad }}}
                    {{- end }}
                    """);
        });
        return MapSnapshot.ofStrings("c", files);
    }
}
