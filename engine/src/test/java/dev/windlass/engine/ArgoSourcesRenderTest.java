package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.render.AppRendering;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.source.MapSnapshot;
import dev.windlass.render.ChartMirrors;
import dev.windlass.render.RenderAccess;
import dev.windlass.render.RenderLimits;
import dev.windlass.render.RenderRequest;
import dev.windlass.render.RenderTools;
import dev.windlass.render.Renderer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * The common shape of an Argo CD Application of several sources: a chart from a Helm chart repository (podinfo, served on
 * loopback by the tests' chart repository, named as its publisher's address through a chart mirror) with value files of
 * this repo through a source's {@code ref}. What Windlass renders equals what the real {@code helm template} prints for
 * the same chart with the same value files in the same order, then the inline values, as Argo CD passes them.
 */
class ArgoSourcesRenderTest {
    static final String REPO = "https://github.com/org/fleet.git";
    static final String PODINFO = "https://stefanprodan.github.io/podinfo";
    static final String WINDLASS = """
            apiVersion: windlass.dev/v1alpha1
            kind: Settings
            spec:
              argocd:
                repoURLs: [https://github.com/org/fleet.git]
            ---
            apiVersion: windlass.dev/v1alpha1
            kind: Cluster
            metadata: {name: production}
            spec: {connection: {sandbox: {nodes: 1}}}
            """;
    /** In the shape of Argo CD's documented example of multiple sources: the chart, and this repo as ref: values. */
    static final String APPLICATION = """
            apiVersion: argoproj.io/v1alpha1
            kind: Application
            metadata: {name: podinfo, namespace: argocd}
            spec:
              project: default
              sources:
                - repoURL: https://stefanprodan.github.io/podinfo
                  chart: podinfo
                  targetRevision: 6.14.1
                  helm:
                    valueFiles:
                      - $values/envs/prod/values.yaml
                      - $values/envs/prod/ui.yaml
                    valuesObject:
                      logLevel: debug
                - repoURL: https://github.com/org/fleet.git
                  targetRevision: main
                  ref: values
              destination: {name: production, namespace: podinfo}
              syncPolicy: {automated: {prune: true}}
            """;
    static final String VALUES = "replicaCount: 3\nui:\n  color: \"#111111\"\n  message: from the repo\n";
    static final String UI = "ui:\n  color: \"#222222\"\n";

    @TempDir Path work;

    private String helm(Path dir, List<String> args) throws Exception {
        List<String> command = new ArrayList<>(List.of(RenderTools.fromEnvironment().helm().toString()));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD);
        Path home = Files.createTempDirectory(work, "home-");
        pb.environment().put("HOME", home.toString());
        pb.environment().put("HELM_CACHE_HOME", home.resolve("cache").toString());
        pb.environment().put("HELM_CONFIG_HOME", home.resolve("config").toString());
        pb.environment().put("HELM_DATA_HOME", home.resolve("data").toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), String.join(" ", command) + "\n" + out);
        return out;
    }

    /** Objects by kind, namespace and name; one printed without a namespace gets the destination's, as Windlass writes it. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> objects(String yaml, String namespace) {
        Map<String, Object> out = new TreeMap<>();
        for (Object o : new Yaml().loadAll(yaml)) {
            if (!(o instanceof Map<?, ?> m)) continue;
            Map<String, Object> meta = (Map<String, Object>) m.get("metadata");
            meta.putIfAbsent("namespace", namespace);
            out.put(m.get("kind") + "/" + meta.get("namespace") + "/" + meta.get("name"), m);
        }
        return out;
    }

    /** What Windlass applies on production, with the objects it adds on its own (the implicit Namespace) set aside. */
    private static Map<String, Object> applied(Application app) {
        Map<String, Object> out = new TreeMap<>();
        for (Manifest m : app.variants().get("production").manifests()) {
            if (!m.implicit()) out.put(m.ref().kind() + "/" + m.ref().namespace() + "/" + m.ref().name(), m.body());
        }
        return out;
    }

    @Test
    void aRepositoryChartWithValueFilesOfThisRepoRendersWhatHelmTemplatePrintsWithTheSameFilesInTheSameOrder() throws Exception {
        try (ChartServers charts = ChartServers.start(work, List.of("podinfo-6.14.1.tgz"))) {
            RenderAccess access = new RenderAccess(RenderAccess.DEFAULT.sandbox(), false, false,
                    ChartMirrors.parse(PODINFO + "=" + charts.repositoryUrl(), new ArrayList<>()));
            Map<String, byte[]> files = new TreeMap<>();
            Map.of("windlass.yaml", WINDLASS, "argocd/podinfo.yaml", APPLICATION, "envs/prod/values.yaml", VALUES, "envs/prod/ui.yaml", UI)
                    .forEach((p, t) -> files.put(p, t.getBytes(StandardCharsets.UTF_8)));
            DesiredState s;
            try (AppRendering rendering = new AppRendering(new Renderer(RenderTools.fromEnvironment(), RenderLimits.DEFAULT, access))) {
                s = rendering.read(new MapSnapshot("00000000000000000000000000000000000000b2", files));
            }
            assertEquals(List.of(), s.diagnostics().stream().filter(Diagnostic::isError).map(Object::toString).toList());
            Application app = s.apps().get("podinfo");
            assertTrue(app.valid(), app.diagnostics().toString());

            // Argo CD's command line: the chart, the value files of the repo in order, then the inline values as a file of their own.
            Path dir = Files.createDirectories(work.resolve("argocd"));
            Files.createDirectories(dir.resolve("envs/prod"));
            Files.writeString(dir.resolve("envs/prod/values.yaml"), VALUES);
            Files.writeString(dir.resolve("envs/prod/ui.yaml"), UI);
            Files.writeString(dir.resolve("inline-values.yaml"), "logLevel: debug\n");
            String printed = helm(dir, List.of("template", "podinfo", ChartServers.charts().resolve("podinfo-6.14.1.tgz").toString(),
                    "--namespace", "podinfo", "--skip-tests", "--include-crds", "--kube-version", RenderRequest.DEFAULT_KUBE_VERSION,
                    "-f", "envs/prod/values.yaml", "-f", "envs/prod/ui.yaml", "--values", "inline-values.yaml"));
            assertTrue(printed.contains("replicas: 3") && printed.contains("#222222") && printed.contains("from the repo")
                    && printed.contains("--level=debug"), printed);
            assertEquals(objects(printed, "podinfo"), applied(app));
        }
    }
}
