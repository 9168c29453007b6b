package dev.windlass.engine.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.source.MapSnapshot;
import dev.windlass.render.RenderLimits;
import dev.windlass.render.RenderRequest;
import dev.windlass.render.RenderTools;
import dev.windlass.render.Renderer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * An Argo CD Application renders what Argo CD's repo server makes of it: the objects Windlass applies equal what the real
 * kustomize prints after the same {@code kustomize edit} commands Argo CD runs in the path, and what the real
 * {@code helm template} prints with the values files, the inline values and the {@code --set} parameters Argo CD passes.
 * The folders are Argo CD's example apps, as published; the Applications are the ones a team would write for them.
 */
class ArgoRenderTest {
    static final Path FIXTURE = Path.of("..", "test-fixtures", "real-world", "argocd-example-apps");
    static final String URL = "https://github.com/argoproj/argocd-example-apps.git";
    static final String WINDLASS = """
            apiVersion: windlass.dev/v1alpha1
            kind: Settings
            spec:
              argocd:
                repoURLs: [https://github.com/argoproj/argocd-example-apps.git]
            ---
            apiVersion: windlass.dev/v1alpha1
            kind: Cluster
            metadata: {name: production}
            spec: {connection: {sandbox: {nodes: 1}}}
            """;
    static final String KUSTOMIZE_GUESTBOOK = """
            apiVersion: argoproj.io/v1alpha1
            kind: Application
            metadata: {name: kustomize-guestbook, namespace: argocd}
            spec:
              project: default
              source:
                repoURL: https://github.com/argoproj/argocd-example-apps.git
                path: kustomize-guestbook
                kustomize:
                  namePrefix: prod-
                  nameSuffix: -v2
                  images: [gcr.io/google-samples/gb-frontend:v6]
                  commonLabels: {team: guestbook}
                  commonAnnotations: {owner: web}
              destination: {name: production, namespace: kustomize-guestbook}
              syncPolicy: {automated: {prune: true}}
            """;
    static final String HELM_GUESTBOOK = """
            apiVersion: argoproj.io/v1alpha1
            kind: Application
            metadata: {name: helm-guestbook, namespace: argocd}
            spec:
              project: default
              source:
                repoURL: https://github.com/argoproj/argocd-example-apps
                path: helm-guestbook
                helm:
                  releaseName: guestbook
                  valueFiles: [values-production.yaml]
                  values: |
                    replicaCount: 2
                    service:
                      port: 8080
                  parameters:
                    - {name: service.port, value: "8081"}
                    - {name: image.tag, value: "5", forceString: true}
              destination: {name: production, namespace: helm-guestbook}
              syncPolicy: {automated: {prune: true, selfHeal: true}}
            """;

    @TempDir Path work;

    private final AppRendering rendering = new AppRendering(new Renderer(RenderTools.fromEnvironment(), RenderLimits.DEFAULT));

    /** The published folders, with {@code more} added. */
    private static MapSnapshot repo(Map<String, String> more) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(FIXTURE)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) files.put(FIXTURE.relativize(p).toString(), Files.readAllBytes(p));
        }
        more.forEach((p, text) -> files.put(p, text.getBytes(StandardCharsets.UTF_8)));
        return new MapSnapshot("00000000000000000000000000000000000000a1", files);
    }

    /** A copy of the fixture's folder {@code folder}, in a folder of its own. */
    private Path copy(String folder) throws IOException {
        Path dir = Files.createTempDirectory(work, "copy-");
        try (Stream<Path> walk = Files.walk(FIXTURE.resolve(folder))) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                Path to = dir.resolve(folder).resolve(FIXTURE.resolve(folder).relativize(p).toString());
                Files.createDirectories(to.getParent());
                Files.copy(p, to);
            }
        }
        return dir;
    }

    private String run(Path dir, List<String> command) throws Exception {
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

    /**
     * Objects by kind, namespace and name. Every object of these folders is namespaced: one printed without a namespace gets
     * the destination's, as Argo CD applies it, and as Windlass writes it.
     */
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

    private static List<String> errors(DesiredState s) {
        List<String> out = new ArrayList<>();
        s.diagnostics().stream().filter(Diagnostic::isError).forEach(d -> out.add(d.toString()));
        return out;
    }

    @Test
    void theKustomizeBlockRendersAsTheRealKustomizeBuildsThePathAfterArgoCdsKustomizeEdits() throws Exception {
        DesiredState s = rendering.read(repo(Map.of("windlass.yaml", WINDLASS, "argocd/kustomize-guestbook.yaml", KUSTOMIZE_GUESTBOOK)));
        assertEquals(List.of(), errors(s));
        Application app = s.apps().get("kustomize-guestbook");
        assertTrue(app.valid(), app.diagnostics().toString());

        // What Argo CD's repo server runs in a copy of the path before it builds (kustomize edit, then kustomize build).
        Path dir = copy("kustomize-guestbook");
        Path path = dir.resolve("kustomize-guestbook");
        String kustomize = RenderTools.fromEnvironment().kustomize().toString();
        run(path, List.of(kustomize, "edit", "set", "nameprefix", "--", "prod-"));
        run(path, List.of(kustomize, "edit", "set", "namesuffix", "--", "-v2"));
        run(path, List.of(kustomize, "edit", "set", "image", "gcr.io/google-samples/gb-frontend:v6"));
        run(path, List.of(kustomize, "edit", "add", "label", "--force", "team:guestbook"));
        run(path, List.of(kustomize, "edit", "add", "annotation", "--force", "owner:web"));
        String built = run(path, List.of(kustomize, "build", "."));
        assertTrue(built.contains("prod-guestbook-ui-v2") && built.contains("gb-frontend:v6") && built.contains("team: guestbook"), built);
        assertEquals(objects(built, "kustomize-guestbook"), applied(app));
    }

    @Test
    void theHelmBlockRendersWhatTheRealHelmTemplatePrintsWithTheValuesArgoCdPasses() throws Exception {
        DesiredState s = rendering.read(repo(Map.of("windlass.yaml", WINDLASS, "argocd/helm-guestbook.yaml", HELM_GUESTBOOK)));
        assertEquals(List.of(), errors(s));
        Application app = s.apps().get("helm-guestbook");
        assertTrue(app.valid(), app.diagnostics().toString());

        // Argo CD's command line: the values files, then the inline values as a file of their own, then the parameters.
        Path dir = copy("helm-guestbook");
        Files.writeString(dir.resolve("inline-values.yaml"), "replicaCount: 2\nservice:\n  port: 8080\n");
        String printed = run(dir, List.of(RenderTools.fromEnvironment().helm().toString(), "template", "guestbook", "helm-guestbook",
                "--namespace", "helm-guestbook", "--skip-tests", "--include-crds", "--kube-version", RenderRequest.DEFAULT_KUBE_VERSION,
                "-f", "helm-guestbook/values-production.yaml", "--values", "inline-values.yaml",
                "--set", "service.port=8081", "--set-string", "image.tag=5"));
        Map<String, Object> expected = objects(printed, "helm-guestbook");
        assertTrue(printed.contains("port: 8081") && printed.contains("gb-frontend:5") && printed.contains("type: LoadBalancer")
                && printed.contains("replicas: 2"), printed);
        assertEquals(expected, applied(app));
    }

    @Test
    void theExamplesAppOfAppsChartIsHeldWithAnErrorAtEachApplicationItPrints() throws Exception {
        DesiredState s = rendering.read(repo(Map.of("windlass.yaml", WINDLASS, "argocd/example-apps.yaml", """
                apiVersion: argoproj.io/v1alpha1
                kind: Application
                metadata: {name: example-apps, namespace: argocd}
                spec:
                  source: {repoURL: "https://github.com/argoproj/argocd-example-apps.git", path: apps}
                  destination: {name: production, namespace: argocd}
                  syncPolicy: {automated: {}}
                """)));
        Application app = s.apps().get("example-apps");
        assertFalse(app.valid());
        assertTrue(errors(s).stream().anyMatch(e -> e.contains("the render prints the Argo CD Application example.guestbook, which Windlass"
                + " does not read yet: an Application is read where it is written as YAML in a plain directory an Application applies"
                + " (app of apps); write it there")), errors(s).toString());
    }
}
