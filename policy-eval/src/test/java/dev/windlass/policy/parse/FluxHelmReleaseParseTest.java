package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.RenderSpec;
import dev.windlass.policy.model.SourceLocation;
import dev.windlass.policy.source.MapSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * HelmReleases read from what a Flux Kustomization's build printed: each an application of its own, or an error at the
 * field where the repo writes it, holding that release's application only. Here the build prints the files as they are
 * (what kustomize prints for a folder of plain objects), so each error's place is known by line.
 */
class FluxHelmReleaseParseTest {
    static final Application KUSTOMIZATION = new Application("staging-apps",
            Map.of(FluxKustomizationReader.LABEL_NAME, "apps", FluxKustomizationReader.LABEL_FOLDER, "staging"), "apps/staging", "default",
            new Application.Placement(null, List.of("staging"), 0), Application.SyncPolicy.DEFAULT, List.of("staging-infra-configs"), false,
            List.of(), "r1", List.of(), new SourceLocation("clusters/staging/apps.yaml", 2, 1), Map.of());

    static final String REPOSITORY = """
            apiVersion: source.toolkit.fluxcd.io/v1
            kind: HelmRepository
            metadata: {name: podinfo, namespace: podinfo}
            spec:
              interval: 5m
              url: https://stefanprodan.github.io/podinfo
            """;

    /** The releases of a build that printed {@code files} (each also a file of the repo the build read). */
    private static FluxHelmReleases.Imported read(Map<String, String> files) {
        List<Manifest> built = new ArrayList<>();
        List<Diagnostic> said = new ArrayList<>();
        files.forEach((path, text) -> built.addAll(RenderedObjects.read("apps/staging/kustomization.yaml", text, "default", said)));
        assertEquals(List.of(), said);
        return FluxHelmReleases.read(KUSTOMIZATION, built, MapSnapshot.ofStrings("c", files), files.keySet());
    }

    private static Application only(FluxHelmReleases.Imported imported) {
        assertEquals(List.of(), imported.problems());
        assertEquals(1, imported.apps().size());
        return imported.apps().get(0);
    }

    private static List<String> errors(Application app) {
        return app.diagnostics().stream().filter(Diagnostic::isError).map(Object::toString).toList();
    }

    private static String release(String spec) {
        return """
                apiVersion: helm.toolkit.fluxcd.io/v2
                kind: HelmRelease
                metadata: {name: podinfo, namespace: podinfo}
                spec:
                """ + spec.indent(2);
    }

    static final String CHART = """
            chart:
              spec:
                chart: podinfo
                version: 6.14.1
                sourceRef: {kind: HelmRepository, name: podinfo}
            """;

    @Test
    void aReleaseFromAHelmRepositoryIsAnApplicationOfItsOwnAfterItsKustomization() {
        Application app = only(read(new LinkedHashMap<>(Map.of("apps/base/repository.yaml", REPOSITORY, "apps/base/release.yaml",
                release(CHART + "interval: 50m\nvalues: {replicaCount: 2}\n")))));
        assertEquals("staging-podinfo", app.name());
        RenderSpec.Helm helm = app.render().helm();
        assertEquals(List.of("https://stefanprodan.github.io/podinfo", "podinfo", "6.14.1", "podinfo", "", false),
                List.of(helm.repoURL(), helm.chart(), helm.version(), helm.releaseName(), helm.chartPath(), helm.skipCrds()));
        assertEquals(Map.of("replicaCount", 2), new Yaml().load(helm.values()));
        assertEquals("podinfo", app.namespace());
        assertEquals(List.of("staging-apps"), app.dependsOn());
        assertEquals(KUSTOMIZATION.placement(), app.placement());
        assertTrue(app.render().flux().crdsOnce(), "Flux's default: CRDs created at install, left at upgrade");
        assertEquals(List.of("apps/base/release.yaml:10:13: warning: HelmRelease.spec: accepted and ignored, since they change when Flux works, not"
                + " what it applies: interval (Windlass reconciles every Settings.spec.interval and on each push)"),
                app.diagnostics().stream().map(Object::toString).toList());
    }

    @Test
    void eachUnsupportedFieldIsAnErrorWhereTheRepoWritesItHoldingThatReleaseOnly() {
        Application app = only(read(Map.of("apps/base/repository.yaml", REPOSITORY, "apps/base/release.yaml",
                release(CHART + "postRenderers: []\nserviceAccountName: helm\n"))));
        assertEquals(List.of(
                "apps/base/release.yaml:10:18: HelmRelease.spec.postRenderers is not supported by Windlass yet: Windlass does not run"
                        + " post-renderers yet; render the chart with a Windlass Application whose variants' overrides change what it renders,"
                        + " or keep this release on Flux for now",
                "apps/base/release.yaml:11:23: HelmRelease.spec.serviceAccountName is not supported by Windlass yet: Windlass applies with"
                        + " the credentials of each Cluster's connection; remove it"), errors(app));
    }

    @Test
    void anUnknownFieldIsAnErrorAtItsKey() {
        Application app = only(read(Map.of("apps/base/repository.yaml", REPOSITORY, "apps/base/release.yaml", release(CHART + "valus: {a: 1}\n"))));
        assertEquals(1, errors(app).size(), errors(app).toString());
        assertTrue(errors(app).get(0).startsWith("apps/base/release.yaml:10:3: unknown field 'valus' in HelmRelease.spec; known fields:"),
                errors(app).get(0));
    }

    @Test
    void aFieldAPatchAddsIsSaidInThePatch() {
        // The base and an overlay's patch of it; the build printed them merged.
        String merged = release(CHART + "postRenderers: []\n");
        Map<String, String> repo = new LinkedHashMap<>();
        repo.put("apps/base/release.yaml", release(CHART));
        repo.put("apps/staging/patch.yaml", release("postRenderers: []\n"));
        List<Manifest> built = new ArrayList<>();
        List<Diagnostic> said = new ArrayList<>();
        built.addAll(RenderedObjects.read("apps/staging/kustomization.yaml", REPOSITORY, "default", said));
        built.addAll(RenderedObjects.read("apps/staging/kustomization.yaml", merged, "default", said));
        Application app = only(FluxHelmReleases.read(KUSTOMIZATION, built, MapSnapshot.ofStrings("c", repo), repo.keySet()));
        assertEquals(1, errors(app).size(), errors(app).toString());
        assertTrue(errors(app).get(0).startsWith("apps/staging/patch.yaml:5:18: HelmRelease.spec.postRenderers is not supported"), errors(app).get(0));
    }

    @Test
    void aHelmRepositoryNotInTheBuildIsAnErrorAtTheSourceRef() {
        Application app = only(read(Map.of("apps/base/release.yaml", release(CHART))));
        assertEquals(List.of("apps/base/release.yaml:9:18: HelmRelease.spec.chart.spec.sourceRef HelmRepository podinfo/podinfo is not in"
                + " what this HelmRelease's Kustomization builds; Windlass reads the HelmRepositories built with the release: add it to the"
                + " same build"), errors(app));
    }

    @Test
    void aHelmRepositoryWithCredentialsIsAnErrorInItsOwnFileAndHoldsTheRelease() {
        Application app = only(read(Map.of("apps/base/repository.yaml", REPOSITORY + "  secretRef: {name: creds}\n",
                "apps/base/release.yaml", release(CHART))));
        assertEquals(2, errors(app).size(), errors(app).toString());
        assertTrue(errors(app).get(0).startsWith("apps/base/release.yaml:9:18: HelmRelease.spec.chart.spec.sourceRef HelmRepository"
                + " podinfo/podinfo cannot be read: see its errors"), errors(app).toString());
        assertTrue(errors(app).get(1).startsWith("apps/base/repository.yaml:7:14: HelmRepository.spec.secretRef is not supported by"
                + " Windlass yet: Windlass fetches charts without credentials"), errors(app).toString());
    }

    @Test
    void anOciHelmRepositoryAndAnOciRepositoryNameTheChartInTheRegistry() {
        String oci = """
                apiVersion: source.toolkit.fluxcd.io/v1
                kind: OCIRepository
                metadata: {name: podinfo, namespace: podinfo}
                spec:
                  interval: 10m
                  url: oci://ghcr.io/stefanprodan/charts/podinfo
                  layerSelector: {mediaType: "application/vnd.cncf.helm.chart.content.v1.tar+gzip", operation: copy}
                  ref: {semver: "6.x"}
                """;
        Application app = only(read(Map.of("apps/base/oci.yaml", oci, "apps/base/release.yaml",
                release("chartRef: {kind: OCIRepository, name: podinfo}\n"))));
        RenderSpec.Helm helm = app.render().helm();
        assertEquals(List.of("oci://ghcr.io/stefanprodan/charts", "podinfo", "6.x"), List.of(helm.repoURL(), helm.chart(), helm.version()));
        assertEquals(List.of(), errors(app));

        Application typed = only(read(Map.of("apps/base/repository.yaml", REPOSITORY.replace("url: https://stefanprodan.github.io/podinfo",
                "type: oci\n  url: oci://ghcr.io/stefanprodan/charts"), "apps/base/release.yaml", release(CHART))));
        assertEquals(List.of("oci://ghcr.io/stefanprodan/charts", "podinfo", "6.14.1"),
                List.of(typed.render().helm().repoURL(), typed.render().helm().chart(), typed.render().helm().version()));

        Application digest = only(read(Map.of("apps/base/oci.yaml", oci.replace("semver: \"6.x\"", "digest: \"sha256:0a1b\""),
                "apps/base/release.yaml", release("chartRef: {kind: OCIRepository, name: podinfo}\n"))));
        assertTrue(errors(digest).stream().anyMatch(e -> e.startsWith("apps/base/oci.yaml:8:17: HelmRelease") || e.startsWith("apps/base/oci.yaml:8:")
                && e.contains("ref.digest is not supported by Windlass yet")), errors(digest).toString());
    }

    @Test
    void aChartOfThisRepoComesFromTheGitRepositoryFluxSystemAndNoOther() {
        String git = "chart:\n  spec:\n    chart: ./charts/podinfo\n    sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}\n";
        Application app = only(read(Map.of("apps/base/release.yaml", release(git))));
        assertEquals("charts/podinfo", app.render().helm().chartPath());
        assertEquals(List.of(), errors(app));
        Application other = only(read(Map.of("apps/base/release.yaml", release(git.replace("name: flux-system, namespace", "name: other, namespace")))));
        assertEquals(1, errors(other).size(), errors(other).toString());
        assertTrue(errors(other).get(0).contains("GitRepository flux-system/other is not supported yet"), errors(other).get(0));
    }

    @Test
    void valuesFromConfigMapsAndSecretsMergeInOrderThenValuesAndNoSecretIsEverQuoted() {
        String objects = """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: base-values, namespace: podinfo}
                data:
                  values.yaml: |
                    replicaCount: 1
                    ui: {color: blue, message: from-configmap}
                ---
                apiVersion: v1
                kind: Secret
                metadata: {name: token, namespace: podinfo}
                data:
                  token: c2VjcmV0LXRva2Vu
                  broken: c2VjcmV0OiBbdW5jbG9zZWQ=
                """;
        String spec = CHART + """
                valuesFrom:
                  - {kind: ConfigMap, name: base-values}
                  - {kind: Secret, name: token, valuesKey: token, targetPath: auth.token}
                  - {kind: ConfigMap, name: absent, optional: true}
                values: {ui: {message: from-values}}
                """;
        Application app = only(read(Map.of("apps/base/repository.yaml", REPOSITORY, "apps/base/objects.yaml", objects,
                "apps/base/release.yaml", release(spec))));
        assertEquals(List.of(), errors(app));
        assertEquals(Map.of("replicaCount", 1, "ui", Map.of("color", "blue", "message", "from-values"), "auth", Map.of("token", "secret-token")),
                new Yaml().load(app.render().helm().values()));

        Application broken = only(read(Map.of("apps/base/repository.yaml", REPOSITORY, "apps/base/objects.yaml", objects,
                "apps/base/release.yaml", release(CHART + "valuesFrom:\n  - {kind: Secret, name: token, valuesKey: broken}\n"
                        + "  - {kind: ConfigMap, name: absent}\n"))));
        assertEquals(List.of(
                "apps/base/release.yaml:11:7: HelmRelease.spec.valuesFrom[0].valuesKey: the Secret's key 'broken' is not YAML values (a mapping); fix it",
                "apps/base/release.yaml:12:7: HelmRelease.spec.valuesFrom[1].name: ConfigMap podinfo/absent is not in what this HelmRelease's"
                        + " Kustomization builds; Windlass reads valuesFrom from the same build: add it there, or say optional: true"),
                errors(broken));
        assertFalse(broken.diagnostics().toString().contains("secret"), "no Secret value is quoted");
    }

    @Test
    void releaseNameTargetNamespaceCrdsDependsOnAndSuspendAreFluxs() {
        Application app = only(read(Map.of("apps/base/repository.yaml", REPOSITORY, "apps/base/release.yaml", release(CHART + """
                targetNamespace: web
                install: {crds: Skip, remediation: {retries: 3}}
                dependsOn: [{name: redis}]
                suspend: true
                """))));
        assertEquals("web-podinfo", app.render().helm().releaseName(), "Flux's default: <targetNamespace>-<name>");
        assertEquals("web", app.namespace());
        assertTrue(app.render().helm().skipCrds());
        assertEquals(List.of("staging-apps", "staging-redis"), app.dependsOn());
        assertTrue(app.suspend());
        assertTrue(app.diagnostics().toString().contains("install.remediation (it changes how Flux runs Helm, not what it applies)"),
                app.diagnostics().toString());

        Application replaced = only(read(Map.of("apps/base/repository.yaml", REPOSITORY, "apps/base/release.yaml",
                release(CHART + "releaseName: web\nupgrade: {crds: CreateReplace}\ndependsOn: [{name: redis, namespace: other}]\n"))));
        assertEquals("web", replaced.render().helm().releaseName());
        assertFalse(replaced.render().flux().crdsOnce());
        assertEquals(1, errors(replaced).size(), errors(replaced).toString());
        assertTrue(errors(replaced).get(0).startsWith("apps/base/release.yaml:12:"), errors(replaced).get(0));
    }

    @Test
    void anOlderApiVersionIsAnErrorThatSaysFluxMigrate() {
        Application app = only(read(Map.of("apps/base/repository.yaml", REPOSITORY, "apps/base/release.yaml",
                release(CHART).replace("helm.toolkit.fluxcd.io/v2", "helm.toolkit.fluxcd.io/v2beta1"))));
        assertEquals(List.of("apps/base/release.yaml:1:13: apiVersion 'helm.toolkit.fluxcd.io/v2beta1' of HelmRelease is not supported;"
                + " Windlass reads helm.toolkit.fluxcd.io/v2 (flux migrate rewrites older ones)"), errors(app));
    }
}
