package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.render.PlanMarkdown;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Applications whose kustomizations reach for the engine host's files, each by a field and spelling that once worked
 * or that a user could try, beside a healthy application, on a real control plane. Each is Invalid at the place it
 * names; the healthy one is applied in the same pass; and the marker the host's files carry is nowhere: not on the
 * cluster, not in any object of the Git origin (status files, commit messages, plans), not in the pass's plan, and not
 * in the engine's log.
 */
class RenderEscapeIT {
    static final String MARKER = "HOST-MARKER-5a0d2e";

    @TempDir Path dir;

    @Test
    void noFileOfTheEngineHostReachesTheClusterGitOrTheLog() throws Exception {
        Path host = Files.createDirectories(dir.resolve("host"));
        write(host.resolve("charts/evil/Chart.yaml"), "apiVersion: v2\nname: evil\nversion: 0.1.0\n");
        write(host.resolve("charts/evil/values.yaml"), "");
        write(host.resolve("charts/evil/templates/cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: evil}\ndata: {m: " + MARKER + "}\n");
        write(host.resolve("values.yaml"), "marker: " + MARKER + "\n");
        write(host.resolve("res.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: leaked}\ndata: {m: " + MARKER + "}\n");

        Map<String, String> attempts = new LinkedHashMap<>();
        attempts.put("legacy-chart-home", "helmChartInflationGenerator: [{chartName: evil, chartHome: '%s', values: v.yaml}]\n"
                .formatted(host.resolve("charts")));
        attempts.put("legacy-chart-home-climbing", "helmChartInflationGenerator: [{chartName: evil, chartHome: '%s', values: v.yaml}]\n"
                .formatted("../".repeat(20) + host.resolve("charts").toString().substring(1)));
        attempts.put("inline-generator", "generators:\n- |\n  apiVersion: builtin\n  kind: HelmChartInflationGenerator\n  metadata: {name: e}\n"
                + "  name: evil\n  chartHome: " + host.resolve("charts") + "\n");
        attempts.put("generator-file", "generators: [gen.yaml]\n");
        attempts.put("values-file", "helmCharts: [{name: ok, valuesFile: '%s'}]\n".formatted(host.resolve("values.yaml")));
        attempts.put("file-url", "resources: ['file://%s']\n".formatted(host.resolve("res.yaml")));
        attempts.put("chart-repository", "helmCharts: [{name: evil, repo: 'file://%s', version: 0.1.0}]\n".formatted(host.resolve("charts")));

        ListAppender<ILoggingEvent> log = new ListAppender<>();
        // The engine's log at DEBUG, kept in memory only (the console stays at the tests' WARN).
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        Logger windlass = (Logger) LoggerFactory.getLogger("dev.windlass");
        Level was = windlass.getLevel();
        windlass.setLevel(Level.DEBUG);
        windlass.setAdditive(false);
        log.start();
        windlass.addAppender(log);
        root.addAppender(log);
        try (TestFleet fleet = new TestFleet(dir, true)) {
            fleet.push("apps that reach for the host, and a healthy one", c -> {
                var change = c.write("clusters/lab.yaml", fleet.clusterYaml("lab", "env: lab", 1, 0, ""))
                        .write("apps/web/app.yaml", app("web", "apps/web/src"))
                        .write("apps/web/src/kustomization.yaml", "resources: [cm.yaml]\n")
                        .write("apps/web/src/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata: {a: b}\n");
                for (Map.Entry<String, String> a : attempts.entrySet()) {
                    String src = "apps/" + a.getKey() + "/src/";
                    change = change.write("apps/" + a.getKey() + "/app.yaml", app(a.getKey(), "apps/" + a.getKey() + "/src"))
                            .write(src + "kustomization.yaml", a.getValue())
                            .write(src + "v.yaml", "a: b\n")
                            .write(src + "gen.yaml", "apiVersion: builtin\nkind: HelmChartInflationGenerator\nmetadata: {name: e}\nname: evil\n"
                                    + "chartHome: " + host.resolve("charts") + "\n")
                            .write(src + "charts/ok/Chart.yaml", "apiVersion: v2\nname: ok\nversion: 0.1.0\n")
                            .write(src + "charts/ok/values.yaml", "marker: none\n")
                            .write(src + "charts/ok/templates/cm.yaml",
                                    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\ndata: {m: \"{{ .Values.marker }}\"}\n");
                }
                return change;
            });
            PassReport pass = fleet.pass();

            for (String name : attempts.keySet()) {
                assertFalse(pass.desired().apps().get(name).valid(), name + " is Invalid");
                List<Diagnostic> said = pass.desired().diagnostics().stream().filter(d -> d.toString().contains("apps/" + name + "/src/")).toList();
                assertFalse(said.isEmpty(), name + ": an error at its own files: " + pass.desired().diagnostics());
                assertTrue(said.get(0).toString().matches("apps/" + name + "/src/(kustomization|gen)\\.yaml:\\d+:\\d+: .*"), said.get(0).toString());
            }
            assertTrue(pass.desired().apps().get("web").valid());
            try (KubernetesClient k = fleet.client("lab")) {
                assertNotNull(k.configMaps().inNamespace("web").withName("web").get(), "the healthy application is applied in the same pass");
                List<String> onCluster = new ArrayList<>();
                for (ConfigMap cm : k.configMaps().inAnyNamespace().list().getItems()) onCluster.add(String.valueOf(cm.getData()));
                for (Secret s : k.secrets().inAnyNamespace().list().getItems()) {
                    if (s.getData() != null) s.getData().values().forEach(v -> onCluster.add(new String(Base64.getDecoder().decode(v), StandardCharsets.UTF_8)));
                }
                assertFalse(String.join("\n", onCluster).contains(MARKER), "the marker is on the cluster");
            }
            assertTrue(pass.committed(), "the pass recorded its status");
            assertFalse(PlanMarkdown.render(pass.plan(), "main").contains(MARKER), "the marker is in the plan");
            assertFalse(pass.desired().diagnostics().toString().contains(MARKER), "the marker is in an error");
            String objects = everyObject(fleet.origin);
            assertTrue(objects.contains("fleet.yaml") && objects.contains("Windlass-Source"), "the origin's status objects were read");
            assertFalse(objects.contains(MARKER), "the marker is in an object of the Git origin");
        } finally {
            windlass.detachAppender(log);
            root.detachAppender(log);
            windlass.setAdditive(true);
            windlass.setLevel(was);
        }
        StringBuilder logged = new StringBuilder();
        for (ILoggingEvent e : log.list) {
            logged.append(e.getFormattedMessage()).append('\n');
            if (e.getThrowableProxy() != null) logged.append(e.getThrowableProxy().getMessage()).append('\n');
        }
        assertTrue(logged.length() > 0, "the engine logged");
        assertFalse(logged.toString().contains(MARKER), "the marker is in the engine's log");
    }

    /** Every object of the repository, as git prints it: blobs, trees' names, commits with their messages. */
    private static String everyObject(Path gitDir) throws Exception {
        Process p = new ProcessBuilder("git", "--git-dir", gitDir.toString(), "cat-file", "--batch-all-objects", "--batch")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        assertEquals(0, p.waitFor(), out.length() > 500 ? out.substring(0, 500) : out);
        return out;
    }

    private static String app(String name, String path) {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: " + name + "}\nspec:\n  namespace: " + name
                + "\n  placement: {clusterNames: [lab]}\n  source: {path: " + path + "}\n";
    }

    private static void write(Path file, String text) throws java.io.IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }
}
