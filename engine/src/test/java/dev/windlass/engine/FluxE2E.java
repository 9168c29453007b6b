package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.policy.model.Diagnostic;
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
}
