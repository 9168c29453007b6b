package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.FluxHealth;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.model.SourceLocation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each thing Windlass does not follow in a Flux Kustomization: an error at its place, holding that application only. */
class FluxKustomizationParseTest {

    static final String OTHER = """
            apiVersion: kustomize.toolkit.fluxcd.io/v1
            kind: Kustomization
            metadata: {name: other, namespace: flux-system}
            spec:
              sourceRef: {kind: GitRepository, name: flux-system}
              path: ./deploy
              prune: true
            """;

    /** A repo with the cluster staging, a valid Kustomization "other", and {@code clusters/staging/app.yaml} as given. */
    static DesiredState parse(String app, String... more) {
        List<String> files = new ArrayList<>(List.of(
                "windlass.yaml", FluxFixture.WINDLASS,
                "windlass/clusters.yaml", FluxFixture.CLUSTERS,
                "clusters/staging/other.yaml", OTHER,
                "clusters/staging/app.yaml", app,
                "deploy/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata: {a: '${greeting}'}\n"));
        files.addAll(List.of(more));
        return RepoParser.parse(RepoFiles.inline(files.toArray(String[]::new)));
    }

    /** A Kustomization "app" whose spec is {@code spec} (indented by two). */
    static String kustomization(String spec) {
        return "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: app, namespace: flux-system}\nspec:\n"
                + "  sourceRef: {kind: GitRepository, name: flux-system}\n  path: ./deploy\n" + spec;
    }

    static Stream<Arguments> problems() {
        return Stream.of(
                Arguments.of(kustomization("  healthChecks: [{kind: Deployment, name: web}]\n"),
                        "clusters/staging/app.yaml:7:18: Kustomization.spec.healthChecks[0].apiVersion is required"),
                Arguments.of(kustomization("  healthChecks: [{apiVersion: kustomize.toolkit.fluxcd.io/v1, kind: Kustomization, name: app}]\n"),
                        "clusters/staging/app.yaml:7:18: Kustomization.spec.healthChecks[0].name names this Kustomization itself; name"
                                + " another object, or remove the entry"),
                Arguments.of(kustomization("  healthCheckExprs: [{apiVersion: apps/v1, kind: Deployment, current: 'true'}]\n"),
                        "clusters/staging/app.yaml:7:21: Kustomization.spec.healthCheckExprs is not supported by Windlass yet: Windlass judges"
                                + " health by its own rules for each kind; remove it"),
                Arguments.of(kustomization("  wait: sometimes\n"), "clusters/staging/app.yaml:7:9: Kustomization.spec.wait must be true or false"),
                Arguments.of(kustomization("  decryption: {provider: sops}\n"),
                        "clusters/staging/app.yaml:7:15: Kustomization.spec.decryption is not supported by Windlass yet: Windlass decrypts no"
                                + " SOPS files a Kustomization builds; move encrypted Secrets to a Windlass Application whose source is a"
                                + " folder of YAML (spec.decryption there, docs/secrets.md)"),
                Arguments.of(kustomization("  prunne: true\n"),
                        "clusters/staging/app.yaml:7:3: unknown field 'prunne' in Kustomization.spec; known fields: "),
                Arguments.of(kustomization("  prune: yes please\n"), "clusters/staging/app.yaml:7:10: Kustomization.spec.prune must be true or false"),
                Arguments.of(kustomization("").replace("name: flux-system}", "name: podinfo}"),
                        "clusters/staging/app.yaml:5:14: Kustomization.spec.sourceRef GitRepository flux-system/podinfo is not supported yet:"
                                + " Windlass reads Kustomizations of this repo, whose source is the GitRepository flux-system/flux-system of a"
                                + " bootstrapped repo; bring the other repo's files into this one, or keep this Kustomization on Flux for now"),
                Arguments.of(kustomization("").replace("kind: GitRepository", "kind: OCIRepository"),
                        "clusters/staging/app.yaml:5:14: Kustomization.spec.sourceRef OCIRepository flux-system/flux-system is not supported yet"),
                Arguments.of(kustomization("").replace("kustomize.toolkit.fluxcd.io/v1", "kustomize.toolkit.fluxcd.io/v1beta2"),
                        "clusters/staging/app.yaml:1:13: apiVersion 'kustomize.toolkit.fluxcd.io/v1beta2' of Kustomization is not supported;"
                                + " Windlass reads kustomize.toolkit.fluxcd.io/v1 (flux migrate rewrites older ones)"),
                Arguments.of(kustomization("  dependsOn: [{name: other, namespace: apps}]\n"),
                        "clusters/staging/app.yaml:7:40: Kustomization.spec.dependsOn[0].namespace 'apps' is not this Kustomization's namespace"),
                Arguments.of(kustomization("  targetNamespace: Web_Shop\n"),
                        "clusters/staging/app.yaml:7:20: Kustomization.spec.targetNamespace 'Web_Shop' is not a valid namespace name"),
                Arguments.of(kustomization("  components: [/etc/passwd]\n"),
                        "clusters/staging/app.yaml:7:15: Kustomization.spec.components '/etc/passwd' must be a local relative path, as in Flux"),
                Arguments.of(kustomization("  patches: [{target: {kind: Deployment}}]\n"),
                        "clusters/staging/app.yaml:7:13: Kustomization.spec.patches[0].patch is required"),
                Arguments.of(kustomization("  images: [{name: nginx, newTag: 1.27}]\n"),
                        "clusters/staging/app.yaml:7:34: Kustomization.spec.images[0].newTag must be a string; quote the value"),
                Arguments.of(kustomization("  postBuild: {substituteFrom: [{kind: ConfigMap, name: cluster-vars}]}\n"),
                        "clusters/staging/app.yaml:7:32: postBuild.substituteFrom: no ConfigMap flux-system/cluster-vars is in the repo;"
                                + " Windlass reads the ConfigMaps and Secrets of substituteFrom from the repo (the cluster folder first): add it,"
                                + " or set optional: true"),
                Arguments.of(kustomization("  postBuild: {substituteFrom: [{kind: Bucket, name: vars}]}\n"),
                        "clusters/staging/app.yaml:7:39: Kustomization.spec.postBuild.substituteFrom[0].kind is 'Bucket'; use one of ConfigMap, Secret"),
                Arguments.of(kustomization("  postBuild: {substitute: {cluster-name: staging}}\n"),
                        "clusters/staging/app.yaml:7:27: Kustomization.spec.postBuild.substitute.'cluster-name' is not a valid variable name"),
                Arguments.of(kustomization("").replace("./deploy", "./nowhere"),
                        "clusters/staging/app.yaml:6:9: the path nowhere of this Flux Kustomization does not exist in the repo; give a folder of its source"),
                Arguments.of(kustomization("").replace("./deploy", "../../etc"),
                        "clusters/staging/app.yaml:6:9: Kustomization.spec.path '../../etc' leaves its source; give a folder inside it"));
    }

    @ParameterizedTest
    @MethodSource("problems")
    void eachProblemIsAnErrorAtItsPlaceThatHoldsOnlyItsApplication(String app, String expected) {
        DesiredState s = parse(app);
        List<String> errors = FluxFixture.errors(s);
        assertTrue(errors.stream().anyMatch(e -> e.startsWith(expected)), "expected " + expected + "\nbut got " + errors);
        Application held = s.apps().get("staging-app");
        assertFalse(held.valid(), "the application of the Kustomization is held");
        assertTrue(held.diagnostics().stream().anyMatch(d -> d.toString().startsWith(expected)));
        assertTrue(s.apps().get("staging-other").valid(), "the other Kustomization's application goes on: " + s.apps().get("staging-other").diagnostics());
    }

    @Test
    void everySupportedFieldIsReadWithoutAProblem() {
        DesiredState s = parse(kustomization("""
                  prune: false
                  force: true
                  suspend: true
                  targetNamespace: web
                  namePrefix: staging-
                  nameSuffix: -v1
                  images: [{name: nginx, newName: registry.example/nginx, newTag: "1.27"}]
                  patches:
                    - patch: '[{"op": "add", "path": "/data/b", "value": "2"}]'
                      target: {kind: ConfigMap, name: web}
                  components: [../components/tls]
                  dependsOn: [{name: other}]
                  wait: true
                  healthChecks:
                    - {apiVersion: helm.toolkit.fluxcd.io/v2, kind: HelmRelease, name: podinfo, namespace: podinfo}
                    - {apiVersion: kustomize.toolkit.fluxcd.io/v1, kind: Kustomization, name: other}
                    - {apiVersion: apps/v1, kind: Deployment, name: web, namespace: web}
                    - {apiVersion: gateway.networking.k8s.io/v1, kind: GatewayClass, name: eg}
                  postBuild:
                    substitute: {greeting: hello}
                    substituteFrom:
                      - {kind: ConfigMap, name: cluster-vars}
                      - {kind: Secret, name: cluster-secrets}
                      - {kind: ConfigMap, name: absent, optional: true}
                """), "clusters/staging/vars.yaml", """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: cluster-vars, namespace: flux-system}
                data: {region: eu, greeting: hi}
                ---
                apiVersion: v1
                kind: Secret
                metadata: {name: cluster-secrets, namespace: flux-system}
                data: {token: czNjcjN0}
                """, "components/tls/kustomization.yaml", "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n");
        assertEquals(List.of(), FluxFixture.errors(s));
        Application app = s.apps().get("staging-app");
        assertEquals("web", app.namespace());
        assertEquals(List.of("staging-other"), app.dependsOn());
        assertTrue(app.suspend());
        assertEquals(new FluxHealth(true, List.of(
                new FluxHealth.OfApp("staging-podinfo", "HelmRelease", new SourceLocation("clusters/staging/app.yaml", 21, 7)),
                new FluxHealth.OfApp("staging-other", "Kustomization", new SourceLocation("clusters/staging/app.yaml", 22, 7)),
                new FluxHealth.OfObject(new ObjectRef("apps", "Deployment", "web", "web"), new SourceLocation("clusters/staging/app.yaml", 23, 7)),
                new FluxHealth.OfObject(new ObjectRef("gateway.networking.k8s.io", "GatewayClass", "flux-system", "eg"),
                        new SourceLocation("clusters/staging/app.yaml", 24, 7)))),
                app.render().flux().health(), "wait and each healthChecks entry, a HelmRelease or Kustomization as its application");
        assertEquals(new Application.SyncPolicy(false, true, Application.ApplyStrategy.ServerSide, true), app.syncPolicy());
        assertEquals(Map.of("greeting", "hello", "region", "eu", "token", "s3cr3t"), app.render().flux().substitute(),
                "substitute wins over substituteFrom, a Secret's data is decoded");
        assertEquals("""
                apiVersion: kustomize.config.k8s.io/v1beta1
                kind: Kustomization
                resources:
                - ./cm.yaml
                namespace: web
                namePrefix: staging-
                nameSuffix: -v1
                patches:
                - patch: '[{"op": "add", "path": "/data/b", "value": "2"}]'
                  target:
                    kind: ConfigMap
                    name: web
                components:
                - ../components/tls
                images:
                - name: nginx
                  newName: registry.example/nginx
                  newTag: '1.27'
                """, app.render().flux().files().get("deploy/kustomization.yaml"), "a path without a kustomization gets one listing its files");
    }

    @Test
    void anArtifactThatRenamesAFolderIsAnErrorAtItsCopyRuleOnTheKustomizationThatUsesIt() {
        DesiredState s = parse(kustomization("").replace("{kind: GitRepository, name: flux-system}", "{kind: ExternalArtifact, name: deploy}"),
                "clusters/staging/artifacts.yaml", """
                        apiVersion: source.extensions.fluxcd.io/v1beta1
                        kind: ArtifactGenerator
                        metadata: {name: flux-system, namespace: flux-system}
                        spec:
                          sources: [{alias: repo, kind: GitRepository, name: flux-system}]
                          artifacts:
                            - name: deploy
                              copy:
                                - {from: "@repo/deploy/**", to: "@artifact/manifests/"}
                        """);
        List<String> errors = FluxFixture.errors(s);
        assertTrue(errors.contains("clusters/staging/artifacts.yaml:9:11: ArtifactGenerator copy rule from '@repo/deploy/**' to"
                + " '@artifact/manifests/' renames a folder, which is not supported yet: Windlass reads an artifact as a folder of the repo,"
                + " so a copied folder must keep its name (to: \"@artifact/deploy/\")"), errors.toString());
        assertFalse(s.apps().get("staging-app").valid());
        assertTrue(s.apps().get("staging-other").valid());
    }

    @Test
    void theBootstrapKustomizationOfAClusterFolderIsNotImported() {
        DesiredState s = parse(OTHER.replace("name: other", "name: flux-system").replace("./deploy", "./clusters/staging"));
        assertEquals(List.of(), FluxFixture.errors(s));
        assertEquals(List.of("staging-other"), List.copyOf(s.apps().keySet()), FluxFixture.warnings(s).toString());
        assertTrue(FluxFixture.warnings(s).contains("clusters/staging/app.yaml:1:1: warning: Kustomization flux-system is how Flux syncs"
                + " 'clusters/staging' itself: Windlass reads the Flux objects of that folder and runs no Flux controllers, so it is not imported"));
    }

    @Test
    void aClusterFolderPatternIsCheckedWhereItIsWritten() {
        DesiredState s = RepoParser.parse(RepoFiles.inline("windlass.yaml", """
                apiVersion: windlass.dev/v1alpha1
                kind: Settings
                spec:
                  flux:
                    clusters:
                      - path: clusters/*
                      - path: fleet/prod
                """));
        assertEquals(List.of("windlass.yaml:6:15: Settings.spec.flux.clusters.path 'clusters/*' may hold {cluster} only as a whole folder"
                + " name (clusters/{cluster}), and no other pattern",
                "windlass.yaml:7:9: Settings.spec.flux.clusters entry for 'fleet/prod' names no cluster: write {cluster} for the folder"
                        + " segment that is the cluster's name (path: clusters/{cluster}), or give clusterNames and/or clusterSelector"),
                FluxFixture.errors(s));
    }

    @Test
    void aFixedFolderGoesToTheClustersItsEntryChooses() {
        DesiredState s = RepoParser.parse(RepoFiles.inline(
                "windlass.yaml", FluxFixture.WINDLASS.replace("- path: clusters/{cluster}",
                        "- path: fleet/prod\n        clusterSelector: {matchLabels: {env: production}}"),
                "windlass/clusters.yaml", FluxFixture.CLUSTERS,
                "fleet/prod/other.yaml", OTHER,
                "deploy/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n"));
        assertEquals(List.of(), FluxFixture.errors(s));
        Application app = s.apps().get("prod-other");
        assertEquals(Map.of("env", "production"), app.placement().clusterSelector().matchLabels());
        assertEquals(List.of(), app.placement().clusterNames());
    }

    @Test
    void aFolderForAClusterThatDoesNotExistIsAnErrorAtTheKustomization() {
        DesiredState s = parse(kustomization(""), "clusters/qa/other.yaml", OTHER);
        assertTrue(FluxFixture.errors(s).contains("clusters/qa/other.yaml:1:1: Flux Kustomization of application qa-other is for the cluster"
                + " 'qa' (Settings.spec.flux.clusters, windlass.yaml:6:9), but no Cluster has that name; known: production, staging; add the"
                + " Cluster, or map this folder to another"), FluxFixture.errors(s).toString());
        assertFalse(s.apps().get("qa-other").valid());
        assertTrue(s.apps().get("staging-other").valid(), "the same Kustomization in another folder is another application");
    }

    @Test
    void twoKustomizationsOfOneNameInOneFolderAreBothErrorsAtTheirNames() {
        DesiredState s = parse(OTHER.replace("./deploy", "./deploy/"));
        assertEquals(List.of(
                "clusters/staging/app.yaml:3:18: Application 'staging-other' is also defined at clusters/staging/other.yaml:3:18; a name may be"
                        + " defined once: rename or remove one (until then neither is used)",
                "clusters/staging/other.yaml:3:18: Application 'staging-other' is also defined at clusters/staging/app.yaml:3:18; a name may be"
                        + " defined once: rename or remove one (until then neither is used)"), FluxFixture.errors(s));
        assertFalse(s.apps().get("staging-other").valid());
    }

    @Test
    void aPathTheArtifactDoesNotCopyIsAnErrorAtThePath() {
        String generator = """
                apiVersion: source.extensions.fluxcd.io/v1beta1
                kind: ArtifactGenerator
                metadata: {name: flux-system, namespace: flux-system}
                spec:
                  sources: [{alias: repo, kind: GitRepository, name: flux-system}]
                  artifacts:
                    - name: apps
                      copy:
                        - {from: "@repo/apps/staging/**", to: "@artifact/staging/"}
                        - {from: "@repo/apps/base/**", to: "@artifact/base/"}
                """;
        String app = kustomization("").replace("{kind: GitRepository, name: flux-system}", "{kind: ExternalArtifact, name: apps}");
        DesiredState s = parse(app.replace("./deploy", "./production"), "clusters/staging/artifacts.yaml", generator,
                "apps/production/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: p}\n");
        assertTrue(FluxFixture.errors(s).contains("clusters/staging/app.yaml:6:9: Kustomization.spec.path './production' is not in the"
                + " ExternalArtifact, whose copy rules make the folders staging/, base/; give one of them, or copy the folder into the artifact"),
                FluxFixture.errors(s).toString());
        DesiredState ok = parse(app.replace("./deploy", "./staging"), "clusters/staging/artifacts.yaml", generator,
                "apps/staging/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: s}\n");
        assertEquals(List.of(), FluxFixture.errors(ok));
        assertEquals("apps/staging", ok.apps().get("staging-app").sourcePath());
    }
}
