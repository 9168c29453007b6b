package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Flux's own example repo, as published, read by Windlass once a team has said which clusters its folders are for. */
class FluxExampleRepoTest {

    /** What a user reads of each application: its source path, clusters, dependencies and whether it prunes. */
    private static String shape(Application a) {
        return a.sourcePath() + " on " + a.placement().clusterNames() + " after " + a.dependsOn() + (a.syncPolicy().prune() ? " prune" : "")
                + " from " + a.location();
    }

    @Test
    void theKustomizationsOfEachClusterFolderAreReadIntoApplicationsWithTheirPaths() {
        DesiredState s = RepoParser.parse(FluxFixture.adopted());
        assertEquals(List.of(), FluxFixture.errors(s));
        Map<String, String> apps = new TreeMap<>();
        s.apps().values().forEach(a -> apps.put(a.name(), shape(a)));
        assertEquals(Map.of(
                "staging-infra-controllers", "infrastructure/controllers on [staging] after [] prune from clusters/staging/infrastructure.yaml:2:1",
                "staging-infra-configs", "infrastructure/configs on [staging] after [staging-infra-controllers] prune from clusters/staging/infrastructure.yaml:18:1",
                "staging-apps", "apps/staging on [staging] after [staging-infra-configs] prune from clusters/staging/apps.yaml:2:1",
                "production-infra-controllers", "infrastructure/controllers on [production] after [] prune from clusters/production/infrastructure.yaml:2:1",
                "production-infra-configs", "infrastructure/configs on [production] after [production-infra-controllers] prune from clusters/production/infrastructure.yaml:18:1",
                "production-apps", "apps/production on [production] after [production-infra-configs] prune from clusters/production/apps.yaml:2:1"), apps);
        Application apps0 = s.apps().get("staging-apps");
        assertEquals(Map.of("flux.windlass.dev/name", "apps", "flux.windlass.dev/folder", "staging"), apps0.labels());
        assertTrue(apps0.valid());
        assertEquals("apps/staging", apps0.render().kustomize());
        assertEquals(Map.of(), apps0.render().flux().files(), "a path whose kustomization Flux adds nothing to is built as it is");
    }

    @Test
    void aKustomizationsPatchesAreWrittenIntoItsPathsKustomizationAsFluxWritesThem() {
        DesiredState s = RepoParser.parse(FluxFixture.adopted());
        String written = s.apps().get("staging-infra-configs").render().flux().files().get("infrastructure/configs/kustomization.yaml");
        assertEquals("""
                apiVersion: kustomize.config.k8s.io/v1beta1
                kind: Kustomization
                resources:
                - cluster-issuers.yaml
                - gateway.yaml
                patches:
                - patch: |
                    - op: replace
                      path: /spec/acme/server
                      value: https://acme-staging-v02.api.letsencrypt.org/directory
                  target:
                    kind: ClusterIssuer
                    name: letsencrypt
                """, written);
    }

    @Test
    void onlyTheIgnoredFieldsAreWarnedAboutOncePerKustomization() {
        DesiredState s = RepoParser.parse(FluxFixture.adopted());
        List<String> warnings = FluxFixture.warnings(s).stream().filter(w -> w.startsWith("clusters/staging/apps.yaml")).toList();
        assertEquals(List.of("clusters/staging/apps.yaml:10:13: warning: Kustomization.spec: accepted and ignored, since they change when"
                + " Flux works, not what it applies: interval (Windlass reconciles every Settings.spec.interval and on each push);"
                + " retryInterval (Windlass retries on its own backoff); timeout (each cluster's writes have Windlass's own deadline)"), warnings);
    }

    @Test
    void waitIsReadAsWhatDependentsWaitFor() {
        DesiredState s = RepoParser.parse(FluxFixture.adopted());
        assertTrue(s.apps().get("staging-infra-controllers").render().flux().health().waitForPrinted(),
                "infra-controllers says wait: true, so infra-configs waits for the HelmReleases its build prints");
        assertTrue(s.apps().get("staging-apps").render().flux().health().waitForPrinted());
        assertEquals(List.of("staging-infra-controllers"), s.apps().get("staging-infra-configs").dependsOn());
    }

    @Test
    void withoutAClusterMappingEachKustomizationIsAnErrorAtItsOwnPlace() {
        DesiredState s = RepoParser.parse(FluxFixture.repo(Map.of("windlass/clusters.yaml", FluxFixture.CLUSTERS)));
        assertEquals(List.of(), s.apps().keySet().stream().toList());
        List<String> errors = FluxFixture.errors(s);
        assertEquals(6, errors.size(), errors.toString());
        assertTrue(errors.contains("clusters/staging/apps.yaml:2:1: Flux Kustomization 'apps' is in a folder that no Settings.spec.flux.clusters"
                + " entry maps to Windlass clusters, so Windlass does not know where to apply it; add one, such as"
                + " '- path: clusters/{cluster}' for a folder per cluster"), errors.toString());
    }

    @Test
    void kustomizesOwnFilesAreNeverReadAsObjects() {
        DesiredState s = RepoParser.parse(RepoFiles.inline(
                "apps/web/app.yaml", """
                        apiVersion: windlass.dev/v1alpha1
                        kind: Application
                        metadata: {name: web}
                        spec: {placement: {clusterNames: [eu-1]}, source: {path: deploy}}
                        """,
                "clusters/eu-1.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: eu-1}\nspec: {connection: {inCluster: true}}\n",
                "deploy/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n",
                "deploy/flux-system/kustomization.yaml", "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [a.yaml]\n",
                "deploy/flux-system/a.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
                "deploy/component/c.yaml", "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nimages: [{name: x, newTag: '1'}]\n"));
        assertEquals(List.of(), FluxFixture.errors(s));
        assertEquals(List.of("ConfigMap/default/a", "ConfigMap/default/web"),
                s.apps().get("web").manifests().stream().map(m -> m.ref().kind() + "/" + m.ref().namespace() + "/" + m.ref().name()).sorted().toList());
    }

    @Test
    void thePlanNamesTheFluxObjectEachApplicationIsReadFrom() {
        DesiredState s = RepoParser.parse(FluxFixture.adopted());
        var plan = dev.windlass.policy.plan.Planner.plan(s, new dev.windlass.policy.observe.ObservedState(Map.of()),
                dev.windlass.policy.state.EngineState.EMPTY, java.time.Instant.parse("2026-01-01T00:00:00Z"));
        String markdown = dev.windlass.policy.render.PlanMarkdown.render(plan, "main");
        assertTrue(markdown.contains("""
                ## Imported from Flux

                | app | Kustomization |
                |---|---|
                | production-apps | `clusters/production/apps.yaml:2:1` |
                | production-infra-configs | `clusters/production/infrastructure.yaml:18:1` |
                | production-infra-controllers | `clusters/production/infrastructure.yaml:2:1` |
                | staging-apps | `clusters/staging/apps.yaml:2:1` |
                | staging-infra-configs | `clusters/staging/infrastructure.yaml:18:1` |
                | staging-infra-controllers | `clusters/staging/infrastructure.yaml:2:1` |
                """), markdown);
        assertTrue(markdown.contains("- `clusters/staging/apps.yaml:10:13: warning: Kustomization.spec: accepted and ignored"), markdown);
    }

    @Test
    void aReviewCommentNamesTheFluxObjectOfEachApplicationTheBranchChanges() {
        DesiredState base = RepoParser.parse(FluxFixture.repo(Map.of("windlass.yaml", FluxFixture.WINDLASS, "windlass/clusters.yaml", FluxFixture.CLUSTERS)));
        DesiredState head = RepoParser.parse(FluxFixture.repo(Map.of("windlass.yaml", FluxFixture.WINDLASS, "windlass/clusters.yaml", FluxFixture.CLUSTERS,
                "clusters/staging/apps.yaml", FluxFixture.read("clusters/staging/apps.yaml").replace("prune: true", "prune: false"))));
        var observed = new dev.windlass.policy.observe.ObservedState(Map.of());
        var now = java.time.Instant.parse("2026-01-01T00:00:00Z");
        var state = dev.windlass.policy.state.EngineState.EMPTY;
        String comment = dev.windlass.policy.review.ReviewMarkdown.render(new dev.windlass.policy.review.ReviewInput("flux/no-prune", 1, "main", "b",
                "h", "m", List.of(), base, dev.windlass.policy.plan.Planner.plan(base, observed, state, now), head,
                dev.windlass.policy.plan.Planner.plan(head, observed, state, now), observed, List.of()));
        assertTrue(comment.contains("| staging-apps (Flux Kustomization `clusters/staging/apps.yaml:2:1`) | "), comment);
        assertFalse(comment.contains("| production-apps"), "only what the branch changes: " + comment);
    }
}
