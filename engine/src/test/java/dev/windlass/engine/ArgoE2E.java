package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.policy.model.Diagnostic;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Argo CD's example apps, as published, with what a team adds to adopt them: windlass.yaml naming the repo, three
 * Clusters (one by the server URL Argo CD knows it by), and Argo CD Applications two levels deep (a root holding the
 * examples' Applications and a team's app of apps, which holds one more); the Helm guestbook of two sources (its chart,
 * and this repo as {@code ref: values} for a value file of the team's), and one Application of two plain directories.
 * Beside them, a clusters-generator ApplicationSet across the three Clusters, and an ApplicationSet with goTemplate and a
 * git files generator (one Application per config file, rendered by windlass-gotemplate) that applies on the Cluster each
 * file names. Reconciled on sandbox clusters: each Application's objects land on its destination, rendered as Argo CD
 * renders them; idle passes write nothing; a changed image and a changed value file of the repo roll out, and a removed
 * child Application's objects are pruned.
 */
class ArgoE2E {
    @TempDir Path dir;

    static final String URL = "https://github.com/argoproj/argocd-example-apps.git";

    static String application(String name, String path, String destination, String source, String sync) {
        return """
                apiVersion: argoproj.io/v1alpha1
                kind: Application
                metadata: {name: %s, namespace: argocd}
                spec:
                  project: default
                  source:
                    repoURL: %s
                    targetRevision: HEAD
                    path: %s
                %s  destination: %s
                  syncPolicy:
                    automated: %s
                """.formatted(name, URL, path, source.indent(4), destination, sync);
    }

    /** The Helm guestbook of two sources: the chart, with a value file of this repo through the ref of the second. */
    static final String HELM_GUESTBOOK = """
            apiVersion: argoproj.io/v1alpha1
            kind: Application
            metadata: {name: helm-guestbook, namespace: argocd}
            spec:
              project: default
              sources:
                - repoURL: %s
                  targetRevision: HEAD
                  path: helm-guestbook
                  helm:
                    releaseName: guestbook
                    valueFiles: [values-production.yaml, $values/envs/production/helm-guestbook.yaml]
                    parameters: [{name: service.port, value: "8081"}]
                - repoURL: %s
                  targetRevision: HEAD
                  ref: values
              destination: {name: production, namespace: helm-guestbook}
              syncPolicy:
                automated: {prune: true, selfHeal: true}
            """.formatted(URL, URL);

    /** Two plain directories of this repo, applied together as one application. */
    static final String SETTINGS = """
            apiVersion: argoproj.io/v1alpha1
            kind: Application
            metadata: {name: settings, namespace: argocd}
            spec:
              project: default
              sources:
                - {repoURL: "%s", path: settings/base, name: base}
                - {repoURL: "%s", path: settings/production, name: production}
              destination: {name: production, namespace: settings}
              syncPolicy:
                automated: {prune: true, selfHeal: true}
            """.formatted(URL, URL);

    @Test
    void argoCdApplicationsAreReconciledOnTheirDestinationsAndThenLeftAlone() throws Exception {
        reconciledThenLeftAlone(dir, false);
    }

    /** The scenario, on the sandbox or on real control planes ({@code ArgoIT}), whose API servers count the writes. */
    static void reconciledThenLeftAlone(Path dir, boolean real) throws Exception {
        try (TestFleet fleet = new TestFleet(dir, real)) {
            String inCluster = fleet.clusterYaml("in-cluster", "env: dev", 1, 0, "").replace("metadata: {name: in-cluster, labels: {env: dev}}",
                    "metadata: {name: in-cluster, labels: {env: dev}, annotations: {argocd.windlass.dev/server: \"https://kubernetes.default.svc\"}}");
            fleet.push("Argo CD's example apps, adopted", c -> TestFleet.folder(Path.of("..", "test-fixtures", "real-world", "argocd-example-apps"), "")
                    .apply(c)
                    .write("windlass.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Settings\nspec:\n  argocd:\n    repoURLs: [" + URL + "]\n")
                    .write("windlass/in-cluster.yaml", inCluster)
                    .write("windlass/production.yaml", fleet.clusterYaml("production", "env: production", 1, 0, ""))
                    .write("windlass/staging.yaml", fleet.clusterYaml("staging", "env: staging", 1, 0, ""))
                    .write("argocd/root.yaml", application("root", "argocd/apps", "{server: \"https://kubernetes.default.svc\", namespace: argocd}", "",
                            "{prune: true, selfHeal: true}"))
                    .write("argocd/apps/guestbook.yaml", application("guestbook", "guestbook",
                            "{server: \"https://kubernetes.default.svc\", namespace: guestbook}", "", "{prune: true, selfHeal: true}"))
                    .write("argocd/apps/kustomize-guestbook.yaml", application("kustomize-guestbook", "kustomize-guestbook",
                            "{name: production, namespace: kustomize-guestbook}",
                            "kustomize:\n  namePrefix: prod-\n  images: [gcr.io/google-samples/gb-frontend:v6]\n  commonLabels: {team: guestbook}\n",
                            "{prune: true, selfHeal: true}"))
                    .write("argocd/apps/helm-guestbook.yaml", HELM_GUESTBOOK)
                    .write("envs/production/helm-guestbook.yaml", "replicaCount: 2\n")
                    .write("argocd/apps/settings.yaml", SETTINGS)
                    .write("settings/base/common.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: common}\ndata: {region: eu}\n")
                    .write("settings/production/production.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: production}\ndata: {tier: gold}\n")
                    .write("argocd/apps/team.yaml", application("team", "argocd/team", "{name: production, namespace: argocd}", "",
                            "{prune: true, selfHeal: true}"))
                    .write("argocd/apps/guestbooks.yaml", """
                            apiVersion: argoproj.io/v1alpha1
                            kind: ApplicationSet
                            metadata: {name: guestbooks, namespace: argocd}
                            spec:
                              generators:
                                - clusters: {}
                              template:
                                metadata: {name: '{{name}}-set-guestbook'}
                                spec:
                                  project: default
                                  source: {repoURL: "%s", path: guestbook}
                                  destination: {name: '{{name}}', namespace: set-guestbook}
                                  syncPolicy: {automated: {prune: true, selfHeal: true}}
                            """.formatted(URL))
                    .write("config/clusters/in-cluster/config.json", "{\"cluster\": {\"name\": \"in-cluster\"}, \"team\": \"Blue\"}\n")
                    .write("config/clusters/production/config.json", "{\"cluster\": {\"name\": \"production\"}, \"team\": \"Green\"}\n")
                    .write("argocd/apps/configs.yaml", """
                            apiVersion: argoproj.io/v1alpha1
                            kind: ApplicationSet
                            metadata: {name: configs, namespace: argocd}
                            spec:
                              goTemplate: true
                              goTemplateOptions: ["missingkey=error"]
                              generators:
                                - git:
                                    repoURL: "%s"
                                    revision: HEAD
                                    files: [{path: "config/clusters/*/config.json"}]
                              template:
                                metadata:
                                  name: '{{ index .path.segments 2 }}-files-guestbook'
                                  labels: {team: '{{ .team | lower }}'}
                                spec:
                                  project: default
                                  source: {repoURL: "%s", path: guestbook}
                                  destination: {name: '{{ .cluster.name }}', namespace: '{{ printf "files-%%s" .path.basename }}'}
                                  syncPolicy: {automated: {prune: true, selfHeal: true}}
                            """.formatted(URL, URL))
                    .write("argocd/team/guestbook-production.yaml", application("guestbook-production", "guestbook",
                            "{name: production, namespace: guestbook}", "", "{prune: true, selfHeal: true}")));

            PassReport first = fleet.pass();
            assertEquals(List.of(), first.desired().diagnostics().stream().filter(Diagnostic::isError).toList());
            assertEquals(List.of("guestbook", "guestbook-production", "helm-guestbook", "in-cluster-files-guestbook", "in-cluster-set-guestbook",
                    "kustomize-guestbook", "production-files-guestbook", "production-set-guestbook", "root", "settings", "staging-set-guestbook", "team"),
                    List.copyOf(first.desired().apps().keySet()));
            assertEquals("team", first.desired().apps().get("guestbook-production").labels().get("argocd.windlass.dev/parent"));
            assertEquals(List.of(), first.desired().apps().get("root").manifests(), "no Application object is applied");
            String plan = dev.windlass.policy.render.PlanMarkdown.render(first.plan(), "main");
            assertTrue(plan.contains("| kustomize-guestbook | `argocd/apps/kustomize-guestbook.yaml:1:1` |")
                    && plan.contains("| helm-guestbook | `argocd/apps/helm-guestbook.yaml:1:1` |") && plan.contains("| settings | `argocd/apps/settings.yaml:1:1` |")
                    && plan.contains("| production-set-guestbook | `argocd/apps/guestbooks.yaml:8:5` |"), plan);

            RenderScenario.inSync(fleet, "guestbook", "in-cluster");
            RenderScenario.inSync(fleet, "guestbook-production", "production");
            RenderScenario.inSync(fleet, "kustomize-guestbook", "production");
            RenderScenario.inSync(fleet, "helm-guestbook", "production");
            RenderScenario.inSync(fleet, "in-cluster-set-guestbook", "in-cluster");
            RenderScenario.inSync(fleet, "production-set-guestbook", "production");
            RenderScenario.inSync(fleet, "staging-set-guestbook", "staging");
            RenderScenario.inSync(fleet, "settings", "production");
            RenderScenario.inSync(fleet, "in-cluster-files-guestbook", "in-cluster");
            RenderScenario.inSync(fleet, "production-files-guestbook", "production");
            assertEquals("green", first.desired().apps().get("production-files-guestbook").labels().get("team"), "goTemplate with sprig's lower");
            try (KubernetesClient dev = fleet.client("in-cluster"); KubernetesClient production = fleet.client("production")) {
                assertNotNull(dev.apps().deployments().inNamespace("guestbook").withName("guestbook-ui").get(), "destination.server");
                assertNull(dev.apps().deployments().inNamespace("kustomize-guestbook").withName("prod-guestbook-ui").get());
                assertNotNull(production.apps().deployments().inNamespace("guestbook").withName("guestbook-ui").get(),
                        "the child of the team's app of apps, on its own destination");
                assertNotNull(dev.apps().deployments().inNamespace("set-guestbook").withName("guestbook-ui").get(), "the ApplicationSet's, per cluster");
                assertNotNull(production.apps().deployments().inNamespace("set-guestbook").withName("guestbook-ui").get());
                try (KubernetesClient staging = fleet.client("staging")) {
                    assertNotNull(staging.apps().deployments().inNamespace("set-guestbook").withName("guestbook-ui").get(),
                            "the clusters generator makes one Application for each of the three Clusters");
                    assertEquals(List.of("set-guestbook"), staging.apps().deployments().inAnyNamespace().list().getItems().stream()
                            .map(d -> d.getMetadata().getNamespace()).toList(), "and nothing else lands on a Cluster no Application names");
                }
                assertNotNull(dev.apps().deployments().inNamespace("files-in-cluster").withName("guestbook-ui").get(),
                        "the goTemplate git files ApplicationSet's, on the Cluster each config file names");
                assertNotNull(production.apps().deployments().inNamespace("files-production").withName("guestbook-ui").get());
                assertNull(dev.apps().deployments().inNamespace("files-production").withName("guestbook-ui").get());
                Deployment k = production.apps().deployments().inNamespace("kustomize-guestbook").withName("prod-guestbook-ui").get();
                assertNotNull(k, "namePrefix");
                assertEquals("gcr.io/google-samples/gb-frontend:v6", k.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
                assertEquals("guestbook", k.getMetadata().getLabels().get("team"));
                Deployment h = production.apps().deployments().inNamespace("helm-guestbook").withName("guestbook-helm-guestbook").get();
                assertNotNull(h, "the release name");
                assertEquals(2, h.getSpec().getReplicas());
                var svc = production.services().inNamespace("helm-guestbook").withName("guestbook-helm-guestbook").get();
                assertEquals(8081, svc.getSpec().getPorts().get(0).getPort());
                assertEquals("LoadBalancer", svc.getSpec().getType(), "values-production.yaml");
                assertEquals("eu", production.configMaps().inNamespace("settings").withName("common").get().getData().get("region"),
                        "the first directory of spec.sources");
                assertEquals("gold", production.configMaps().inNamespace("settings").withName("production").get().getData().get("tier"),
                        "the second, applied with it as one application");
            }
            assertTrue(fleet.statusFile("status/apps/kustomize-guestbook.yaml").contains("argocd/apps/kustomize-guestbook.yaml"),
                    "the status says which file the application is read from");

            fleet.backend.resetWrites("in-cluster");
            fleet.backend.resetWrites("production");
            fleet.backend.resetWrites("staging");
            for (int i = 0; i < 3; i++) {
                PassReport idle = fleet.pass();
                assertFalse(idle.plan().hasChanges(), "idle pass " + i + " plans nothing:\n" + idle.plan());
                assertEquals(0, idle.renders(), "idle pass " + i + " renders nothing");
            }
            assertEquals(0, fleet.backend.writes("in-cluster") + fleet.backend.writes("production") + fleet.backend.writes("staging"),
                    "writes over 3 idle passes");

            fleet.push("a newer image; the team's guestbook goes", c -> c
                    .write("argocd/apps/kustomize-guestbook.yaml", application("kustomize-guestbook", "kustomize-guestbook",
                            "{name: production, namespace: kustomize-guestbook}",
                            "kustomize:\n  namePrefix: prod-\n  images: [gcr.io/google-samples/gb-frontend:v7]\n  commonLabels: {team: guestbook}\n",
                            "{prune: true, selfHeal: true}"))
                    .write("envs/production/helm-guestbook.yaml", "replicaCount: 3\n")
                    .delete("argocd/team/guestbook-production.yaml"));
            RenderScenario.inSync(fleet, "kustomize-guestbook", "production");
            RenderScenario.inSync(fleet, "helm-guestbook", "production");
            fleet.settle();
            try (KubernetesClient production = fleet.client("production")) {
                Deployment k = production.apps().deployments().inNamespace("kustomize-guestbook").withName("prod-guestbook-ui").get();
                assertEquals("gcr.io/google-samples/gb-frontend:v7", k.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
                assertNull(production.apps().deployments().inNamespace("guestbook").withName("guestbook-ui").get(),
                        "the removed child Application's objects are pruned");
                assertEquals(3, production.apps().deployments().inNamespace("helm-guestbook").withName("guestbook-helm-guestbook").get()
                        .getSpec().getReplicas(), "the value file of the repo, read through $values, changed");
            }
        }
    }
}
