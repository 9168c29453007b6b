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
import dev.windlass.render.RenderTools;
import dev.windlass.render.Renderer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * A Flux Kustomization renders what Flux's build makes of it: the objects Windlass applies equal what the real kustomize
 * prints for the kustomization Flux writes in the path (written here by hand, as Flux writes it), with postBuild's
 * variables substituted as Flux does (by hand here too).
 */
class FluxRenderTest {
    static final Path FIXTURE = Path.of("..", "test-fixtures", "real-world", "flux2-kustomize-helm-example");
    static final String WINDLASS = """
            apiVersion: windlass.dev/v1alpha1
            kind: Settings
            spec:
              flux:
                clusters:
                  - path: clusters/{cluster}
            ---
            apiVersion: windlass.dev/v1alpha1
            kind: Cluster
            metadata: {name: staging}
            spec: {connection: {sandbox: {nodes: 1}}}
            """;

    @TempDir Path work;

    private final AppRendering rendering = new AppRendering(new Renderer(RenderTools.fromEnvironment(), RenderLimits.DEFAULT));

    /** Every file of {@code root} and {@code more}, as a snapshot. */
    private static MapSnapshot repo(Path root, Map<String, String> more) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        if (root != null) {
            try (Stream<Path> walk = Files.walk(root)) {
                for (Path p : walk.filter(Files::isRegularFile).toList()) files.put(root.relativize(p).toString(), Files.readAllBytes(p));
            }
        }
        more.forEach((p, text) -> files.put(p, text.getBytes(StandardCharsets.UTF_8)));
        return new MapSnapshot("00000000000000000000000000000000000000f1", files);
    }

    /** What {@code kustomize build folder} prints for {@code files}, run directly, outside Windlass. */
    private String kustomize(Map<String, String> files, String folder) throws Exception {
        Path dir = Files.createTempDirectory(work, "kustomize-");
        for (var e : files.entrySet()) {
            Path f = dir.resolve(e.getKey());
            Files.createDirectories(f.getParent());
            Files.writeString(f, e.getValue());
        }
        Process p = new ProcessBuilder(RenderTools.fromEnvironment().kustomize().toString(), "build", folder).directory(dir.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    /** Objects by kind, namespace and name, as plain maps. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> objects(String yaml) {
        Map<String, Object> out = new TreeMap<>();
        for (Object o : new Yaml().loadAll(yaml)) {
            if (!(o instanceof Map<?, ?> m)) continue;
            Map<String, Object> meta = (Map<String, Object>) m.get("metadata");
            out.put(m.get("kind") + "/" + meta.getOrDefault("namespace", "") + "/" + meta.get("name"), m);
        }
        return out;
    }

    /** What Windlass applies on staging, with the objects it adds on its own (the implicit Namespace) set aside. */
    private static Map<String, Object> applied(Application app) {
        Map<String, Object> out = new TreeMap<>();
        for (Manifest m : app.variants().get("staging").manifests()) {
            if (m.implicit()) continue;
            out.put(m.ref().kind() + "/" + m.ref().namespace() + "/" + m.ref().name(), m.body());
        }
        return out;
    }

    private static List<String> errors(DesiredState s) { return s.diagnostics().stream().filter(Diagnostic::isError).map(Object::toString).toList(); }

    static final String DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web, labels: {app: web}}
            spec:
              replicas: 1
              selector: {matchLabels: {app: web}}
              template:
                metadata: {labels: {app: web}}
                spec:
                  containers:
                    - name: web
                      image: nginx:1.25
                      env:
                        - {name: GREETING, value: "${greeting}"}
                        - {name: REGION, value: "${region:=eu-1}"}
                        - {name: LITERAL, value: "$${kept}"}
            """;
    static final String SERVICE = """
            apiVersion: v1
            kind: Service
            metadata: {name: web}
            spec:
              selector: {app: web}
              ports: [{port: 80}]
            """;
    static final String COMPONENT = """
            apiVersion: kustomize.config.k8s.io/v1alpha1
            kind: Component
            commonAnnotations: {tls: "on"}
            """;

    @Test
    void everyFieldFluxWritesIntoTheBuildRendersAsTheRealKustomizeBuildsIt() throws Exception {
        String kustomization = """
                apiVersion: kustomize.toolkit.fluxcd.io/v1
                kind: Kustomization
                metadata: {name: web, namespace: flux-system}
                spec:
                  sourceRef: {kind: GitRepository, name: flux-system}
                  path: ./deploy
                  prune: true
                  targetNamespace: shop
                  namePrefix: staging-
                  nameSuffix: -v1
                  images: [{name: nginx, newName: registry.example/nginx, newTag: "1.27"}]
                  patches:
                    - patch: '[{"op": "replace", "path": "/spec/replicas", "value": 3}]'
                      target: {kind: Deployment, name: web}
                  components: [../components/tls]
                  postBuild:
                    substitute: {greeting: hello}
                """;
        MapSnapshot snapshot = repo(null, Map.of("windlass.yaml", WINDLASS, "clusters/staging/web.yaml", kustomization,
                "deploy/deployment.yaml", DEPLOYMENT, "deploy/service.yaml", SERVICE, "components/tls/kustomization.yaml", COMPONENT));
        DesiredState s = rendering.read(snapshot);
        assertEquals(List.of(), errors(s));

        // The kustomization Flux's kustomize-controller writes in ./deploy (it has none): its files, then the Kustomization's fields.
        String written = """
                apiVersion: kustomize.config.k8s.io/v1beta1
                kind: Kustomization
                resources: [./deployment.yaml, ./service.yaml]
                namespace: shop
                namePrefix: staging-
                nameSuffix: -v1
                patches:
                  - patch: '[{"op": "replace", "path": "/spec/replicas", "value": 3}]'
                    target: {kind: Deployment, name: web}
                components: [../components/tls]
                images: [{name: nginx, newName: registry.example/nginx, newTag: "1.27"}]
                """;
        String built = kustomize(Map.of("deploy/kustomization.yaml", written, "deploy/deployment.yaml", DEPLOYMENT,
                "deploy/service.yaml", SERVICE, "components/tls/kustomization.yaml", COMPONENT), "deploy");
        // postBuild as Flux does it: greeting is set, region has a default, $$ keeps a literal ${kept}.
        String substituted = built.replace("${greeting}", "hello").replace("${region:=eu-1}", "eu-1").replace("$${kept}", "${kept}");
        assertTrue(substituted.contains("registry.example/nginx:1.27") && substituted.contains("staging-web-v1"), substituted);
        assertEquals(objects(substituted), applied(s.apps().get("staging-web")));
    }

    /**
     * The fixture's chart sources moved to a loopback address, which an engine refuses to fetch from unless started with
     * --render-allow=private-hosts: its HelmReleases are read, and their charts never fetched from the internet.
     */
    static Map<String, String> offline(Path root, String url) throws IOException {
        Map<String, String> edited = new TreeMap<>();
        for (String file : List.of("apps/base/podinfo/repository.yaml", "infrastructure/controllers/cert-manager.yaml",
                "infrastructure/controllers/envoy-gateway.yaml")) {
            edited.put(file, Files.readString(root.resolve(file)).replace("url: https://stefanprodan.github.io/podinfo", "url: " + url)
                    .replaceAll("url: oci://[a-z.]+/", "url: oci://127.0.0.1:9/"));
        }
        return edited;
    }

    @Test
    void theFixturesStagingConfigsRenderAsTheRealKustomizeBuildsThemWithTheStagingPatch() throws Exception {
        Map<String, String> more = new TreeMap<>(offline(FIXTURE, "http://127.0.0.1:9/podinfo"));
        more.put("windlass.yaml", WINDLASS);
        DesiredState s = rendering.read(repo(FIXTURE, more));
        Application configs = s.apps().get("staging-infra-configs");
        assertTrue(configs.valid(), configs.diagnostics().toString());
        String written = Files.readString(FIXTURE.resolve("infrastructure/configs/kustomization.yaml")) + """
                patches:
                  - patch: |
                      - op: replace
                        path: /spec/acme/server
                        value: https://acme-staging-v02.api.letsencrypt.org/directory
                    target:
                      kind: ClusterIssuer
                      name: letsencrypt
                """;
        String built = kustomize(Map.of("configs/kustomization.yaml", written,
                "configs/cluster-issuers.yaml", Files.readString(FIXTURE.resolve("infrastructure/configs/cluster-issuers.yaml")),
                "configs/gateway.yaml", Files.readString(FIXTURE.resolve("infrastructure/configs/gateway.yaml"))), "configs");
        // A known gap, not Flux's: the CRDs of ClusterIssuer and GatewayClass come with charts of HelmReleases, which are not
        // in the repo, so Windlass cannot know these kinds are cluster-scoped and gives them the application's namespace.
        Map<String, Object> applied = new TreeMap<>();
        List<String> filled = new java.util.ArrayList<>();
        applied(configs).forEach((key, body) -> {
            String[] k = key.split("/");
            if (k[1].equals("default") && objects(built).containsKey(k[0] + "//" + k[2])) {
                filled.add(k[0]);
                @SuppressWarnings("unchecked") Map<String, Object> meta = new TreeMap<>((Map<String, Object>) ((Map<String, Object>) body).get("metadata"));
                meta.remove("namespace");
                Map<String, Object> copy = new TreeMap<>((Map<String, Object>) body);
                copy.put("metadata", meta);
                applied.put(k[0] + "//" + k[2], copy);
            } else {
                applied.put(key, body);
            }
        });
        assertEquals(List.of("ClusterIssuer", "GatewayClass"), filled);
        assertEquals(objects(built), applied);
    }

    @Test
    void theFixturesControllerReleasesAreReadFromTheirOciRepositoriesAndFetchedOnlyAsTheEngineAllows() throws Exception {
        Map<String, String> more = new TreeMap<>(offline(FIXTURE, "http://127.0.0.1:9/podinfo"));
        more.put("windlass.yaml", WINDLASS);
        DesiredState s = rendering.read(repo(FIXTURE, more));
        Application certManager = s.apps().get("staging-cert-manager");
        Application envoy = s.apps().get("staging-envoy-gateway");
        assertEquals(List.of("oci://127.0.0.1:9/jetstack/charts", "cert-manager", "1.x", "cert-manager"), List.of(certManager.render().helm().repoURL(),
                certManager.render().helm().chart(), certManager.render().helm().version(), certManager.namespace()));
        assertEquals(List.of("oci://127.0.0.1:9/envoyproxy", "gateway-helm", ">= 1.8.0-rc.0", "envoy-gateway"), List.of(envoy.render().helm().repoURL(),
                envoy.render().helm().chart(), envoy.render().helm().version(), envoy.render().helm().releaseName()));
        assertEquals(List.of("staging-infra-controllers"), certManager.dependsOn());
        // This engine was not started with --render-allow=private-hosts: the registry on loopback is never asked.
        List<String> said = certManager.diagnostics().stream().filter(Diagnostic::isError).map(Diagnostic::message).toList();
        assertEquals(1, said.size(), said.toString());
        assertEquals(List.of("infrastructure/controllers/cert-manager.yaml"), certManager.diagnostics().stream().filter(Diagnostic::isError)
                .map(d -> d.location().path()).toList(), "said where the repo names the chart, not at the registry's address");
        assertTrue(said.get(0).contains("is on 127.0.0.1, a loopback, link-local or private address: the engine fetches from those only when"
                + " started with --render-allow=private-hosts"), said.get(0));
        Application controllers = s.apps().get("staging-infra-controllers");
        assertTrue(controllers.valid(), controllers.diagnostics().toString());
        assertEquals(List.of("Namespace/cert-manager", "Namespace/envoy-gateway-system"), controllers.variants().get("staging").manifests().stream()
                .map(m -> m.ref().kind() + "/" + m.ref().name()).sorted().toList(), "the releases and their sources are not applied");
    }

    static final String WEB = """
            apiVersion: kustomize.toolkit.fluxcd.io/v1
            kind: Kustomization
            metadata: {name: web, namespace: flux-system}
            spec:
              sourceRef: {kind: GitRepository, name: flux-system}
              path: ./deploy
            """;

    /** The podinfo chart's files, at charts/podinfo of a repo. */
    static Map<String, String> chart() throws IOException {
        Map<String, String> files = new TreeMap<>();
        Path chart = FluxHelmReleaseRenderTest.CHART;
        try (Stream<Path> walk = Files.walk(chart)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) files.put("charts/podinfo/" + chart.relativize(p), Files.readString(p));
        }
        return files;
    }

    @Test
    void aReleaseOfAChartOfThisRepoRendersItAndADependencyOnNoReleaseHoldsItAlone() throws Exception {
        String release = """
                apiVersion: helm.toolkit.fluxcd.io/v2
                kind: HelmRelease
                metadata: {name: podinfo, namespace: web}
                spec:
                  chart:
                    spec:
                      chart: ./charts/podinfo
                      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}
                  values: {replicaCount: 3}
                """;
        Map<String, String> files = new TreeMap<>(chart());
        files.putAll(Map.of("windlass.yaml", WINDLASS, "clusters/staging/web.yaml", WEB, "deploy/release.yaml", release,
                "deploy/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: web}\n"));
        DesiredState s = rendering.read(repo(null, files));
        assertEquals(List.of(), errors(s));
        Application podinfo = s.apps().get("staging-podinfo");
        Manifest deployment = podinfo.variants().get("staging").manifests().stream().filter(m -> m.ref().kind().equals("Deployment")).findFirst().orElseThrow();
        assertEquals("web", deployment.ref().namespace());
        assertTrue(deployment.body().toString().contains("replicas=3"), deployment.body().toString());

        Map<String, String> more = new TreeMap<>(files);
        more.put("policies.yaml", """
                apiVersion: windlass.dev/v1alpha1
                kind: RolloutPolicy
                metadata: {name: releases}
                spec: {selector: {matchLabels: {flux.windlass.dev/kind: HelmRelease}}, type: All}
                """);
        DesiredState policed = rendering.read(repo(null, more));
        assertEquals(List.of(), errors(policed));
        assertEquals(Map.of("staging-podinfo", "releases"), policed.rolloutOf(), "policies select a release's application by its labels");
        more.put("deploy/release.yaml", release.replace("replicaCount: 3", "replicaCount: 4"));
        DesiredState changed = rendering.read(repo(null, more));
        assertEquals(s.apps().get("staging-web").renderedOn("staging"), changed.apps().get("staging-web").renderedOn("staging"),
                "the Kustomization applies the same objects: nothing of it rolls out");
        assertFalse(s.apps().get("staging-podinfo").renderedOn("staging").equals(changed.apps().get("staging-podinfo").renderedOn("staging")));

        files.put("deploy/release.yaml", release + "  dependsOn: [{name: redis}]\n");
        DesiredState held = rendering.read(repo(null, files));
        assertEquals(List.of("deploy/release.yaml:1:1: application staging-podinfo depends on staging-redis, which does not exist:"
                + " HelmRelease.spec.dependsOn names a HelmRelease of the same cluster folder"), errors(held));
        assertTrue(held.apps().get("staging-web").valid(), "the Kustomization's application goes on");
    }

    /**
     * healthChecks are checked once the builds are read: an entry naming a HelmRelease the build prints, or an object its
     * chart renders, is known; one naming a release no build prints, or an object nothing applies, is an error at the
     * entry, holding the Kustomization's application only (its release's application goes on).
     */
    @Test
    void healthChecksNamingWhatTheBuildsMakeAreKnownAndOthersAreErrorsAtTheEntry() throws Exception {
        String release = """
                apiVersion: helm.toolkit.fluxcd.io/v2
                kind: HelmRelease
                metadata: {name: podinfo, namespace: web}
                spec:
                  chart:
                    spec:
                      chart: ./charts/podinfo
                      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}
                """;
        Map<String, String> files = new TreeMap<>(chart());
        files.putAll(Map.of("windlass.yaml", WINDLASS, "deploy/release.yaml", release,
                "deploy/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: web}\n"));
        String checks = """
                  healthChecks:
                    - {apiVersion: helm.toolkit.fluxcd.io/v2, kind: HelmRelease, name: podinfo, namespace: web}
                    - {apiVersion: apps/v1, kind: Deployment, name: podinfo, namespace: web}
                """;
        files.put("clusters/staging/web.yaml", WEB + checks);
        DesiredState known = rendering.read(repo(null, files));
        assertEquals(List.of(), errors(known));
        assertTrue(known.apps().get("staging-web").valid());

        files.put("clusters/staging/web.yaml", WEB + checks.replace("name: podinfo, namespace: web}\n    - {apiVersion: apps/v1",
                "name: redis, namespace: web}\n    - {apiVersion: apps/v1").replace("kind: Deployment, name: podinfo", "kind: Deployment, name: redis"));
        DesiredState unknown = rendering.read(repo(null, files));
        assertEquals(List.of("clusters/staging/web.yaml:8:7: healthChecks names the HelmRelease 'redis', which no Kustomization of this cluster"
                + " folder prints (there is no application staging-redis made from one); name a HelmRelease a Kustomization's build prints,"
                + " or remove the entry",
                "clusters/staging/web.yaml:9:7: healthChecks names Deployment web/redis, which no application applies, so Windlass cannot"
                + " tell its health; name an object that a Kustomization or HelmRelease of the repo applies (with its namespace), or remove"
                + " the entry"), errors(unknown));
        assertFalse(unknown.apps().get("staging-web").valid(), "the Kustomization's application is held");
        assertTrue(unknown.apps().get("staging-podinfo").valid(), "its release's application goes on");
    }

    @Test
    void aChartsCrdsAreCreatedOnceUnlessUpgradeCrdsSaysToKeepThemUpToDateAndLeftOutWithInstallCrdsSkip() throws Exception {
        String crd = """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: widgets.example.com}
                spec:
                  group: example.com
                  names: {kind: Widget, plural: widgets, singular: widget}
                  scope: Namespaced
                  versions:
                    - name: v1
                      served: true
                      storage: true
                      schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
                """;
        String release = """
                apiVersion: helm.toolkit.fluxcd.io/v2
                kind: HelmRelease
                metadata: {name: widgets, namespace: web}
                spec:
                  chart:
                    spec:
                      chart: ./charts/widgets
                      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}
                """;
        Map<String, String> files = new TreeMap<>(Map.of("windlass.yaml", WINDLASS, "clusters/staging/web.yaml", WEB,
                "deploy/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: web}\n",
                "charts/widgets/Chart.yaml", "apiVersion: v2\nname: widgets\nversion: 1.0.0\n", "charts/widgets/crds/widget.yaml", crd,
                "charts/widgets/templates/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: widgets}\ndata: {a: b}\n"));
        Map<String, Manifest.ApplyMode> modes = new TreeMap<>();
        for (String install : List.of("", "  install: {crds: Skip}\n", "  upgrade: {crds: CreateReplace}\n")) {
            files.put("deploy/release.yaml", release + install);
            DesiredState s = rendering.read(repo(null, files));
            assertEquals(List.of(), errors(s));
            s.apps().get("staging-widgets").variants().get("staging").manifests().stream()
                    .filter(m -> m.ref().kind().equals("CustomResourceDefinition"))
                    .forEach(m -> modes.put(install.isEmpty() ? "default" : install.trim(), m.applyMode()));
        }
        assertEquals(Map.of("default", Manifest.ApplyMode.ONCE, "upgrade: {crds: CreateReplace}", Manifest.ApplyMode.ALWAYS), modes);
    }

    @Test
    void aKustomizationThatDoesNotBuildHoldsItsReleasesApplicationsAsTheyWere() throws Exception {
        DesiredState s = rendering.read(repo(null, Map.of("windlass.yaml", WINDLASS, "clusters/staging/web.yaml", WEB,
                "deploy/kustomization.yaml", "resources: [missing.yaml]\n")));
        assertFalse(s.apps().get("staging-web").valid());
        assertTrue(s.brokenFiles().contains("clusters/staging/web.yaml"), "an application it defined and no longer builds is held, not removed");
    }

    @Test
    void aChangedVariableOfSubstituteFromIsANewRevisionOfTheApplicationOnly() throws Exception {
        String kustomizations = """
                apiVersion: kustomize.toolkit.fluxcd.io/v1
                kind: Kustomization
                metadata: {name: web, namespace: flux-system}
                spec:
                  sourceRef: {kind: GitRepository, name: flux-system}
                  path: ./deploy
                  postBuild: {substituteFrom: [{kind: ConfigMap, name: vars}]}
                ---
                apiVersion: kustomize.toolkit.fluxcd.io/v1
                kind: Kustomization
                metadata: {name: plain, namespace: flux-system}
                spec:
                  sourceRef: {kind: GitRepository, name: flux-system}
                  path: ./deploy
                  targetNamespace: other
                """;
        String vars = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: vars, namespace: flux-system}\ndata: {greeting: %s}\n";
        DesiredState before = rendering.read(repo(null, Map.of("windlass.yaml", WINDLASS, "clusters/staging/web.yaml", kustomizations,
                "clusters/staging/vars.yaml", vars.formatted("hello"), "deploy/deployment.yaml", DEPLOYMENT)));
        DesiredState after = rendering.read(repo(null, Map.of("windlass.yaml", WINDLASS, "clusters/staging/web.yaml", kustomizations,
                "clusters/staging/vars.yaml", vars.formatted("goodbye"), "deploy/deployment.yaml", DEPLOYMENT)));
        assertEquals(List.of(), errors(after));
        assertFalse(before.apps().get("staging-web").revision().equals(after.apps().get("staging-web").revision()));
        assertEquals(before.apps().get("staging-plain").revision(), after.apps().get("staging-plain").revision());
        assertTrue(after.apps().get("staging-web").variants().get("staging").manifests().get(0).body().toString().contains("GREETING, value=goodbye"),
                after.apps().get("staging-web").variants().get("staging").manifests().get(0).body().toString());
    }
}
