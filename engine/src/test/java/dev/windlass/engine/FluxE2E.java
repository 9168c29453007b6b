package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.plan.HeldAction;
import dev.windlass.policy.plan.HoldReason;
import dev.windlass.policy.state.Health;
import dev.windlass.policy.render.PlanMarkdown;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A repo laid out for Flux (a folder per cluster of Kustomizations, one path built for both), with only windlass.yaml and
 * the Cluster objects added, reconciled on sandbox clusters: each cluster gets its Kustomizations' objects, built as Flux
 * builds them (target namespace, image, postBuild variables from the cluster folder's ConfigMap), after what they depend
 * on; the plan names each Kustomization; idle passes write nothing.
 */
class FluxE2E {
    @TempDir Path dir;

    private static String kustomizations(String cluster, String tag) {
        return """
                apiVersion: kustomize.toolkit.fluxcd.io/v1
                kind: Kustomization
                metadata: {name: web, namespace: flux-system}
                spec:
                  interval: 10m
                  dependsOn: [{name: db}]
                  sourceRef: {kind: GitRepository, name: flux-system}
                  path: ./apps/web
                  prune: true
                  targetNamespace: web
                  images: [{name: nginx, newTag: "%s"}]
                  postBuild:
                    substitute: {cluster: %s}
                    substituteFrom: [{kind: ConfigMap, name: cluster-vars}]
                ---
                apiVersion: kustomize.toolkit.fluxcd.io/v1
                kind: Kustomization
                metadata: {name: db, namespace: flux-system}
                spec:
                  interval: 10m
                  sourceRef: {kind: GitRepository, name: flux-system}
                  path: ./apps/db
                  prune: true
                  targetNamespace: web
                """.formatted(tag, cluster);
    }

    private static String vars(String greeting) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cluster-vars, namespace: flux-system}\ndata: {greeting: \"" + greeting + "\"}\n";
    }

    private static String env(Deployment d, String name) {
        return d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .filter(e -> e.getName().equals(name)).findFirst().map(e -> e.getValue()).orElse(null);
    }

    @Test
    void aFluxRepoIsReconciledOnItsClustersAndThenLeftAlone() throws Exception {
        reconciledThenLeftAlone(dir, false);
    }

    /** The scenario, on the sandbox or on real control planes ({@code FluxIT}), whose API servers count the writes. */
    static void reconciledThenLeftAlone(Path dir, boolean real) throws Exception {
        try (TestFleet fleet = new TestFleet(dir, real)) {
            fleet.push("a Flux repo, adopted", c -> c
                    .write("windlass.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Settings\nspec:\n  flux:\n    clusters:\n      - path: clusters/{cluster}\n")
                    .write("windlass/staging.yaml", fleet.clusterYaml("staging", "env: staging", 1, 0, ""))
                    .write("windlass/production.yaml", fleet.clusterYaml("production", "env: production", 1, 0, ""))
                    .write("clusters/staging/apps.yaml", kustomizations("staging", "1.27"))
                    .write("clusters/staging/vars.yaml", vars("hello from staging"))
                    .write("clusters/production/apps.yaml", kustomizations("production", "1.26"))
                    .write("clusters/production/vars.yaml", vars("hello from production"))
                    .write("apps/db/config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: db}\ndata: {url: \"db.${cluster}.internal\"}\n")
                    .write("apps/web/deployment.yaml", """
                            apiVersion: apps/v1
                            kind: Deployment
                            metadata: {name: web}
                            spec:
                              selector: {matchLabels: {app: web}}
                              template:
                                metadata: {labels: {app: web}}
                                spec:
                                  containers:
                                    - name: web
                                      image: nginx:1.25
                                      env:
                                        - {name: GREETING, value: "${greeting}"}
                                        - {name: CLUSTER, value: "${cluster}"}
                            """));

            PassReport first = fleet.pass();
            assertEquals(List.of(), first.desired().diagnostics().stream().filter(Diagnostic::isError).toList());
            assertEquals(List.of("production-db", "production-web", "staging-db", "staging-web"), List.copyOf(first.desired().apps().keySet()));
            String plan = PlanMarkdown.render(first.plan(), "main");
            assertTrue(plan.contains("| staging-web | `clusters/staging/apps.yaml:1:1` |"), plan);

            RenderScenario.inSync(fleet, "staging-web", "staging");
            RenderScenario.inSync(fleet, "production-web", "production");
            try (KubernetesClient staging = fleet.client("staging"); KubernetesClient production = fleet.client("production")) {
                Deployment s = staging.apps().deployments().inNamespace("web").withName("web").get();
                Deployment p = production.apps().deployments().inNamespace("web").withName("web").get();
                assertNotNull(s);
                assertNotNull(p);
                assertEquals("nginx:1.27", s.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
                assertEquals("nginx:1.26", p.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
                assertEquals("hello from staging", env(s, "GREETING"));
                assertEquals("hello from production", env(p, "GREETING"));
                assertEquals("production", env(p, "CLUSTER"));
                assertEquals("db.${cluster}.internal", staging.configMaps().inNamespace("web").withName("db").get().getData().get("url"),
                        "a Kustomization without postBuild substitutes nothing, as in Flux");
            }
            assertTrue(fleet.statusFile("status/apps/staging-web.yaml").contains("clusters/staging/apps.yaml"),
                    "the status says which file the application is read from");

            fleet.backend.resetWrites("staging");
            fleet.backend.resetWrites("production");
            for (int i = 0; i < 3; i++) {
                PassReport idle = fleet.pass();
                assertFalse(idle.plan().hasChanges(), "idle pass " + i + " plans nothing:\n" + idle.plan());
                assertEquals(0, idle.renders(), "idle pass " + i + " renders nothing");
            }
            assertEquals(0, fleet.backend.writes("staging") + fleet.backend.writes("production"), "writes over 3 idle passes");
        }
    }

    /**
     * {@code wait: true}: configs depends on controllers, whose build prints a HelmRelease (a chart of this repo with one
     * Deployment). configs' ConfigMap is applied only once that release's Deployment has rolled out, and each pass before
     * says why it waits, by the typed reason; with {@code wait} unset it would go as soon as controllers' own Namespace is
     * there.
     */
    @Test
    void aDependentOfAKustomizationWithWaitWaitsForTheReleasesItsBuildPrinted() throws Exception {
        try (TestFleet fleet = new TestFleet(dir, false)) {
            fleet.push("a Flux repo whose controllers install a chart", c -> c
                    .write("windlass.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Settings\nspec:\n  flux:\n    clusters:\n      - path: clusters/{cluster}\n")
                    .write("windlass/staging.yaml", fleet.clusterYaml("staging", "env: staging", 1, 0, ""))
                    .write("clusters/staging/infrastructure.yaml", """
                            apiVersion: kustomize.toolkit.fluxcd.io/v1
                            kind: Kustomization
                            metadata: {name: controllers, namespace: flux-system}
                            spec:
                              sourceRef: {kind: GitRepository, name: flux-system}
                              path: ./infra/controllers
                              prune: true
                              wait: true
                            ---
                            apiVersion: kustomize.toolkit.fluxcd.io/v1
                            kind: Kustomization
                            metadata: {name: configs, namespace: flux-system}
                            spec:
                              dependsOn: [{name: controllers}]
                              sourceRef: {kind: GitRepository, name: flux-system}
                              path: ./infra/configs
                              prune: true
                            """)
                    .write("infra/controllers/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: operator}\n")
                    .write("infra/controllers/release.yaml", """
                            apiVersion: helm.toolkit.fluxcd.io/v2
                            kind: HelmRelease
                            metadata: {name: operator, namespace: operator}
                            spec:
                              chart:
                                spec:
                                  chart: ./charts/operator
                                  sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}
                            """)
                    .write("charts/operator/Chart.yaml", "apiVersion: v2\nname: operator\nversion: 0.1.0\n")
                    .write("charts/operator/templates/deployment.yaml", """
                            apiVersion: apps/v1
                            kind: Deployment
                            metadata: {name: operator}
                            spec:
                              selector: {matchLabels: {app: operator}}
                              template:
                                metadata: {labels: {app: operator}}
                                spec: {containers: [{name: operator, image: "operator:1.0"}]}
                            """)
                    .write("infra/configs/settings.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: operator}\ndata: {mode: strict}\n"));

            // A release's chart is rendered once its Kustomization's build is read: a pass may go on before its render is done
            // (the release's application is held meanwhile). Until the chart's Deployment is applied, configs waits.
            PassReport pass = fleet.pass();
            assertEquals(List.of("staging-configs", "staging-controllers", "staging-operator"), List.copyOf(pass.desired().apps().keySet()));
            try (KubernetesClient staging = fleet.client("staging")) {
                // Passes until one has applied the release's Deployment; each before it held configs and applied none of it.
                PassReport[] last = {pass};
                pass = dev.windlass.kubetest.Await.until(java.time.Duration.ofSeconds(10), "the release's Deployment applied", () -> {
                    if (staging.apps().deployments().inNamespace("operator").withName("operator").get() != null) return last[0];
                    assertFalse(reasons(last[0], "staging-configs").isEmpty(), "configs waits:\n" + last[0].plan());
                    assertNull(staging.configMaps().inNamespace("operator").withName("settings").get(), "configs waits");
                    try {
                        last[0] = fleet.pass();
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                    return null;
                }, java.util.Objects::nonNull);
                assertEquals(List.of(), pass.desired().diagnostics().stream().filter(Diagnostic::isError).toList());
                assertTrue(pass.applied().results().stream().anyMatch(r -> r.action().app().equals("staging-operator")
                        && r.action().object().kind().equals("Deployment")), "the release's Deployment goes once controllers' Namespace is there:\n" + pass.plan());
                assertEquals(List.of(new HoldReason.AwaitsFluxHealth("staging-controllers", new HoldReason.Awaited.PrintedRelease("staging-operator"),
                        Health.Missing, "staging")), reasons(pass, "staging-configs"), "planned before the Deployment was there:\n" + pass.plan());
                assertNull(staging.configMaps().inNamespace("operator").withName("settings").get(), "configs waits");

                PassReport rolling = fleet.pass();
                assertEquals(List.of(new HoldReason.AwaitsFluxHealth("staging-controllers", new HoldReason.Awaited.PrintedRelease("staging-operator"),
                        Health.Progressing, "staging")), reasons(rolling, "staging-configs"), "the Deployment rolls out:\n" + rolling.plan());
                assertNull(staging.configMaps().inNamespace("operator").withName("settings").get(), "configs still waits");

                // Time passes: the Deployment becomes ready, and configs goes in the pass that sees it Healthy.
                PassReport later = fleet.passLater();
                for (int i = 0; i < 10 && !reasons(later, "staging-configs").isEmpty(); i++) {
                    assertEquals(List.of(new HoldReason.AwaitsFluxHealth("staging-controllers", new HoldReason.Awaited.PrintedRelease("staging-operator"),
                            Health.Progressing, "staging")), reasons(later, "staging-configs"));
                    assertNull(staging.configMaps().inNamespace("operator").withName("settings").get(), "configs waits while the release rolls out");
                    later = fleet.passLater();
                }
                assertEquals(List.of(), reasons(later, "staging-configs"), later.plan().toString());
                assertEquals(Health.Healthy, later.plan().apps().stream().filter(a -> a.app().equals("staging-operator")).findFirst().orElseThrow()
                        .targets().get(0).health(), "the release is Healthy in the pass that lets configs go");
                assertNotNull(staging.configMaps().inNamespace("operator").withName("settings").get(), "applied once the release is Healthy");
            }
        }
    }

    private static List<HoldReason> reasons(PassReport r, String app) {
        return r.plan().held().stream().filter(h -> h.action().app().equals(app)).map(HeldAction::reason).distinct().toList();
    }
}
