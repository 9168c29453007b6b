package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import dev.windlass.policy.render.PlanMarkdown;
import dev.windlass.policy.state.ClusterStep;
import dev.windlass.policy.state.TargetStatus;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/**
 * Applications rendered by the real kustomize and helm: real repos nobody here wrote applied as they render and then
 * left alone (no writes, no renders), per-cluster variants and values, and a render that fails holding its application
 * only. Run by RenderE2E (sandbox) and RenderIT (real control planes).
 */
final class RenderScenario {
    static final int IDLE_PASSES = 5;

    private RenderScenario() {}

    /**
     * A real repo's folder rendered as one application on one cluster: every rendered object is created, and once in
     * sync, idle passes plan nothing, record nothing, write nothing and run no tool.
     *
     * @param source the app's spec.source, its paths under {@code src/<name>/}
     */
    static void renderedSetAppliesAndThenWritesNothing(TestFleet fleet, String name, String fixture, String source) throws Exception {
        fleet.push("add " + name, c -> TestFleet.folder(RealWorldFixtures.folder().resolve(fixture), "src/" + name + "/").apply(c
                .write("clusters/lab.yaml", fleet.clusterYaml("lab", "env: lab", 2, 0, ""))
                .write("apps/" + name + "/app.yaml", """
                        apiVersion: windlass.dev/v1alpha1
                        kind: Application
                        metadata: {name: %s}
                        spec:
                          namespace: %s
                          placement: {clusterNames: [lab]}
                          source:
                        %s""".formatted(name, name, source.indent(4)))));

        PassReport first = fleet.pass();
        assertEquals(List.of(), errors(first), "renders and reads without a problem");
        assertEquals(1, first.renders(), "one render for its one cluster");
        Application app = first.desired().apps().get(name).on("lab");
        assertTrue(app.manifests().size() > 1, "rendered objects: " + app.manifests().size());
        List<ActionResult> notCreated = first.applied().results().stream().filter(r -> r.outcome() != Outcome.Created).toList();
        assertEquals(List.of(), notCreated, "every rendered object is created");
        RealWorldScenario.assertAllOn(fleet, "lab", app.manifests());
        TargetStatus lab = inSync(fleet, name, "lab");
        assertEquals(app.manifests().stream().filter(m -> !m.implicit()).count(), lab.inventory().size(), "every object is in the inventory");

        fleet.backend.resetWrites("lab");
        for (int i = 0; i < IDLE_PASSES; i++) {
            PassReport idle = fleet.pass();
            assertFalse(idle.plan().hasChanges(), "idle pass " + i + " plans nothing:\n" + idle.plan());
            assertFalse(idle.committed(), "idle pass " + i + " records nothing");
            assertEquals(0, idle.renders(), "idle pass " + i + " renders nothing");
        }
        assertEquals(0, fleet.backend.writes("lab"), "writes over " + IDLE_PASSES + " idle passes");
    }

    /**
     * One Kustomize application and one Helm chart over two clusters: each cluster renders its variant (an overlay, values
     * with its own labels, an image override), status and plan say which variant each got, and a change to one overlay
     * renders that overlay only and writes to its cluster only.
     */
    static void variantsRenderPerCluster(TestFleet fleet) throws Exception {
        fleet.push("podinfo per environment", c -> TestFleet.folder(RealWorldFixtures.folder().resolve("podinfo-repo"), "src/podinfo/").apply(c
                .write("clusters/dev-1.yaml", fleet.clusterYaml("dev-1", "env: dev, region: eu-west", 2, 0, ""))
                .write("clusters/prod-1.yaml", fleet.clusterYaml("prod-1", "env: prod, region: us-east", 2, 0, ""))
                .write("apps/podinfo/app.yaml", """
                        apiVersion: windlass.dev/v1alpha1
                        kind: Application
                        metadata: {name: podinfo}
                        spec:
                          placement: {clusterSelector: {}}
                          source: {path: src/podinfo/deploy/overlays/dev}
                          variants:
                          - name: production
                            clusterSelector: {matchLabels: {env: prod}}
                            path: src/podinfo/deploy/overlays/production
                        """)
                .write("apps/web/app.yaml", """
                        apiVersion: windlass.dev/v1alpha1
                        kind: Application
                        metadata: {name: web}
                        spec:
                          namespace: web
                          placement: {clusterSelector: {}}
                          source:
                            helm:
                              chart: src/podinfo/charts/podinfo
                              values:
                                ui: {message: "served from {{ .cluster.labels.region }} by {{ .cluster.name }}"}
                          variants:
                          - name: production
                            clusterSelector: {matchLabels: {env: prod}}
                            values: {replicaCount: 3}
                            overrides:
                              images: [{name: ghcr.io/stefanprodan/podinfo, newTag: 6.5.0}]
                        """)));

        PassReport first = fleet.pass();
        assertEquals(List.of(), errors(first));
        assertEquals(4, first.renders(), "two applications, two clusters, each cluster its own values");
        String plan = PlanMarkdown.render(first.plan(), "main");
        assertTrue(plan.contains("| podinfo | " + first.desired().apps().get("podinfo").revision() + " | dev-1 (default), prod-1 (production) |"),
                plan);
        try (KubernetesClient dev = fleet.client("dev-1"); KubernetesClient prod = fleet.client("prod-1")) {
            assertNotNull(dev.apps().deployments().inNamespace("dev").withName("frontend").get(), "the dev overlay on dev-1");
            assertEquals(null, dev.apps().deployments().inNamespace("production").withName("frontend").get());
            assertNotNull(prod.apps().deployments().inNamespace("production").withName("frontend").get(), "the production overlay on prod-1");

            Deployment devWeb = dev.apps().deployments().inNamespace("web").withName("web-podinfo").get();
            Deployment prodWeb = prod.apps().deployments().inNamespace("web").withName("web-podinfo").get();
            assertEquals("served from eu-west by dev-1", env(devWeb, "PODINFO_UI_MESSAGE"));
            assertEquals("served from us-east by prod-1", env(prodWeb, "PODINFO_UI_MESSAGE"));
            assertEquals(1, devWeb.getSpec().getReplicas());
            assertEquals(3, prodWeb.getSpec().getReplicas(), "the production variant's values");
            assertTrue(devWeb.getSpec().getTemplate().getSpec().getContainers().get(0).getImage().startsWith("ghcr.io/stefanprodan/podinfo:6.14"));
            assertEquals("ghcr.io/stefanprodan/podinfo:6.5.0", prodWeb.getSpec().getTemplate().getSpec().getContainers().get(0).getImage(),
                    "the production variant's image override");
        }
        assertEquals("default", inSync(fleet, "podinfo", "dev-1").variant());
        assertEquals("production", inSync(fleet, "podinfo", "prod-1").variant());
        assertEquals("production", inSync(fleet, "web", "prod-1").variant());

        PassReport idle = fleet.pass();
        assertEquals(0, idle.renders(), "nothing changed: nothing rendered");
        assertFalse(idle.plan().hasChanges(), idle.plan().toString());

        fleet.backend.resetWrites("dev-1");
        fleet.backend.resetWrites("prod-1");
        fleet.push("production label", c -> c.write("src/podinfo/deploy/overlays/production/labels.yaml", """
                apiVersion: builtin
                kind: LabelTransformer
                metadata:
                  name: labels
                labels:
                  env: production
                  tier: critical
                fieldSpecs:
                  - path: metadata/labels
                    create: true
                """));
        PassReport changed = fleet.pass();
        assertEquals(1, changed.renders(), "the production overlay only: the dev overlay and the chart read nothing that changed");
        assertTrue(changed.plan().hasChanges());
        assertEquals(0, fleet.backend.writes("dev-1"), "dev-1 renders the dev overlay: untouched");
        assertTrue(fleet.backend.writes("prod-1") > 0, "prod-1 gets the new label");
        try (KubernetesClient prod = fleet.client("prod-1")) {
            assertEquals("critical", prod.apps().deployments().inNamespace("production").withName("frontend").get()
                    .getMetadata().getLabels().get("tier"));
        }
    }

    /**
     * An application's revision on a cluster is what is rendered for it: a change to the production values is a new
     * revision of the application, but dev-1 renders the same objects, so the rollout passes it by at once, without a
     * write, and walks the production clusters one at a time.
     */
    static void aChangeRollsOutWhereItRendersDifferently(TestFleet fleet) throws Exception {
        fleet.push("a chart on three clusters", c -> c
                .write("clusters/dev-1.yaml", fleet.clusterYaml("dev-1", "env: dev", 1, 0, ""))
                .write("clusters/prod-1.yaml", fleet.clusterYaml("prod-1", "env: prod", 1, 0, ""))
                .write("clusters/prod-2.yaml", fleet.clusterYaml("prod-2", "env: prod", 1, 0, ""))
                .write("charts/greeting/Chart.yaml", "apiVersion: v2\nname: greeting\nversion: 0.1.0\n")
                .write("charts/greeting/values.yaml", "greeting: hello\n")
                .write("charts/greeting/templates/cm.yaml", """
                        apiVersion: v1
                        kind: ConfigMap
                        metadata: {name: greeting}
                        data: {greeting: {{ .Values.greeting | quote }}}
                        """)
                .write("apps/greeting/app.yaml", greetingApp("hello from production")));
        fleet.settle();
        fleet.push("one cluster at a time", c -> c.write("policies/rollout.yaml", """
                apiVersion: windlass.dev/v1alpha1
                kind: RolloutPolicy
                metadata: {name: one-at-a-time}
                spec:
                  selector: {matchLabels: {tier: web}}
                  type: Progressive
                  maxConcurrency: 1
                  minSuccessTime: 1h
                  progressDeadline: 2h
                  maxFailures: 0
                  onFailure: Pause
                """));
        fleet.settle();
        var before = fleet.engine.reconciler().state().apps().get("greeting");
        String devRendered = before.target("dev-1").rendered();
        String prodRendered = before.target("prod-1").rendered();
        assertNotNull(devRendered, "a rendered application records what each cluster got: " + before.target("dev-1"));
        assertEquals(prodRendered, before.target("prod-2").rendered(), "the same values render the same objects");
        assertFalse(devRendered.equals(prodRendered), "other values, other objects");
        assertTrue(fleet.statusFile("status/apps/greeting.yaml").contains("rendered: " + devRendered),
                fleet.statusFile("status/apps/greeting.yaml"));

        fleet.backend.resetWrites("dev-1");
        fleet.push("new production greeting", c -> c.write("apps/greeting/app.yaml", greetingApp("hello again from production")));
        PassReport changed = fleet.pass();
        var after = fleet.engine.reconciler().state().apps().get("greeting");
        assertFalse(after.revision().equals(before.revision()), "a new revision of the application");
        var steps = new java.util.TreeMap<String, ClusterStep.State>();
        after.rollout().clusters().forEach(s -> steps.put(s.cluster(), s.state()));
        assertEquals(ClusterStep.State.Succeeded, steps.get("dev-1"),
                "dev-1 renders what it has: nothing to roll out there. " + after.rollout());
        assertEquals(java.util.Set.of(ClusterStep.State.Progressing, ClusterStep.State.Pending),
                java.util.Set.of(steps.get("prod-1"), steps.get("prod-2")), "the production clusters one at a time: " + after.rollout());
        TargetStatus dev = after.target("dev-1");
        assertEquals(after.revision(), dev.revision(), "dev-1 is at the new revision");
        assertEquals(devRendered, dev.rendered(), "with the objects it had");
        assertEquals(0, fleet.backend.writes("dev-1"), "and no write");
        String progressing = steps.get("prod-1") == ClusterStep.State.Progressing ? "prod-1" : "prod-2";
        String waiting = progressing.equals("prod-1") ? "prod-2" : "prod-1";
        assertFalse(prodRendered.equals(after.target(progressing).rendered()), "the production cluster under way has new objects");
        assertEquals(prodRendered, after.target(waiting).rendered(), "the one that waits keeps its objects");
        assertEquals(before.revision(), after.target(waiting).revision(), "and its revision");
        assertTrue(changed.plan().held().stream().anyMatch(h -> h.action().cluster().equals(waiting)), changed.plan().held().toString());
        try (KubernetesClient k = fleet.client(progressing); KubernetesClient w = fleet.client(waiting)) {
            assertEquals("hello again from production", k.configMaps().inNamespace("greeting").withName("greeting").get().getData().get("greeting"));
            assertEquals("hello from production", w.configMaps().inNamespace("greeting").withName("greeting").get().getData().get("greeting"));
        }
    }

    private static String greetingApp(String production) {
        return """
                apiVersion: windlass.dev/v1alpha1
                kind: Application
                metadata: {name: greeting, labels: {tier: web}}
                spec:
                  namespace: greeting
                  placement: {clusterSelector: {}}
                  source: {helm: {chart: charts/greeting}}
                  variants:
                  - name: production
                    clusterSelector: {matchLabels: {env: prod}}
                    values: {greeting: %s}
                """.formatted(production);
    }

    /** A render that fails holds its own application, with the tool's words where it points; the others are applied. */
    static void aFailedRenderHoldsItsApplicationOnly(TestFleet fleet) throws Exception {
        fleet.push("one broken kustomization", c -> c
                .write("clusters/lab.yaml", fleet.clusterYaml("lab", "env: lab", 1, 0, ""))
                .write("apps/broken/app.yaml", """
                        apiVersion: windlass.dev/v1alpha1
                        kind: Application
                        metadata: {name: broken}
                        spec: {namespace: broken, placement: {clusterNames: [lab]}}
                        """)
                .write("apps/broken/manifests/kustomization.yaml", "resources: [deployment.yaml]\n")
                .write("apps/empty/app.yaml", """
                        apiVersion: windlass.dev/v1alpha1
                        kind: Application
                        metadata: {name: empty}
                        spec: {namespace: empty, placement: {clusterNames: [lab]}}
                        """)
                .write("apps/empty/manifests/kustomization.yaml", "resources: []\n")
                .write("apps/fine/app.yaml", """
                        apiVersion: windlass.dev/v1alpha1
                        kind: Application
                        metadata: {name: fine}
                        spec: {namespace: fine, placement: {clusterNames: [lab]}}
                        """)
                .write("apps/fine/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fine}\ndata: {a: b}\n"));

        PassReport pass = fleet.pass();
        Diagnostic broken = only(pass, "apps/broken/manifests/kustomization.yaml");
        assertTrue(broken.message().startsWith("application broken does not render for lab (variant default): "), broken.message());
        assertTrue(broken.message().contains("deployment.yaml"), "kustomize's own words: " + broken.message());
        Diagnostic empty = only(pass, "apps/empty/manifests/kustomization.yaml");
        assertEquals("application empty does not render for lab (variant default): renders no objects;"
                + " if that is meant, set spec.source.allowEmpty: true", empty.message());
        assertFalse(pass.desired().apps().get("broken").valid());
        assertTrue(pass.desired().apps().get("fine").valid());
        try (KubernetesClient k = fleet.client("lab")) {
            assertNotNull(k.configMaps().inNamespace("fine").withName("fine").get(), "the other application is applied");
            assertEquals(null, k.namespaces().withName("broken").get(), "nothing of the broken one is");
        }
    }

    private static Diagnostic only(PassReport pass, String path) {
        List<Diagnostic> at = errors(pass).stream().filter(d -> d.location().path().equals(path)).toList();
        assertEquals(1, at.size(), "one error at " + path + ": " + errors(pass));
        return at.get(0);
    }

    private static List<Diagnostic> errors(PassReport r) {
        return r.desired().diagnostics().stream().filter(Diagnostic::isError).toList();
    }

    private static String env(Deployment d, String name) {
        return d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .filter(e -> e.getName().equals(name)).findFirst().map(e -> e.getValue()).orElse(null);
    }

    /** Passes as time goes by until the application is in sync there and the plan is empty. */
    static TargetStatus inSync(TestFleet fleet, String app, String cluster) throws Exception {
        TargetStatus t = null;
        PassReport r = null;
        for (int i = 0; i < 30; i++) {
            r = fleet.passLater();
            t = fleet.engine.reconciler().state().apps().get(app).target(cluster);
            if (!r.plan().hasChanges() && t != null && t.sync() == dev.windlass.policy.state.Sync.Synced) return t;
        }
        throw new AssertionError("not in sync: " + t + "; the last pass planned:\n" + r.plan().stages());
    }

    /**
     * A chart renders for the Kubernetes version the cluster's API server says it is: before the cluster ever answered,
     * for the default version; once it answered, the version is on the status branch, the chart renders again for it,
     * and what the cluster holds says the server's own version.
     */
    static void chartsRenderForTheClustersOwnVersion(TestFleet fleet) throws Exception {
        fleet.push("a chart that says its version", c -> c
                .write("clusters/lab.yaml", fleet.clusterYaml("lab", "env: lab", 1, 0, ""))
                .write("charts/ver/Chart.yaml", "apiVersion: v2\nname: ver\nversion: 0.1.0\n")
                .write("charts/ver/templates/cm.yaml", """
                        apiVersion: v1
                        kind: ConfigMap
                        metadata: {name: ver}
                        data:
                          kube: "{{ .Capabilities.KubeVersion.Version }}"
                          widgets: "{{ .Capabilities.APIVersions.Has "widgets.windlass.example/v1" }}"
                        """)
                .write("apps/ver/app.yaml", """
                        apiVersion: windlass.dev/v1alpha1
                        kind: Application
                        metadata: {name: ver}
                        spec:
                          namespace: ver
                          placement: {clusterNames: [lab]}
                          source: {helm: {chart: charts/ver}}
                        """));
        if (fleet.backend.real()) {
            // A group/version this server serves and Helm's built-in list does not: a chart sees it once the server said so.
            try (KubernetesClient k = fleet.client("lab")) {
                k.apiextensions().v1().customResourceDefinitions().resource(io.fabric8.kubernetes.client.utils.Serialization.unmarshal("""
                        apiVersion: apiextensions.k8s.io/v1
                        kind: CustomResourceDefinition
                        metadata: {name: gadgets.widgets.windlass.example}
                        spec:
                          group: widgets.windlass.example
                          scope: Namespaced
                          names: {kind: Gadget, plural: gadgets, singular: gadget}
                          versions:
                          - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
                        """, io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition.class)).create();
                dev.windlass.kubetest.Await.until(java.time.Duration.ofSeconds(30), "the group to be served",
                        () -> k.getApiGroup("widgets.windlass.example"), g -> g != null);
            }
        }

        fleet.pass();
        assertEquals("false", said(fleet, "widgets"), "before the cluster answered: Helm's own API versions");
        String server;
        try (KubernetesClient k = fleet.client("lab")) {
            server = k.getKubernetesVersion().getGitVersion();
        }
        assertEquals(dev.windlass.render.RenderRequest.DEFAULT_KUBE_VERSION, said(fleet), "before the cluster answered: the default");
        if (fleet.backend.real()) {
            assertTrue(fleet.engine.reconciler().state().clusters().get("lab").apiVersions().contains("widgets.windlass.example/v1"),
                    "the served API versions are recorded");
        }
        assertEquals(server, fleet.engine.reconciler().state().clusters().get("lab").kubernetesVersion(), "recorded as the server said it");

        PassReport second = fleet.pass();
        assertEquals(1, second.renders(), "rendered again for the cluster's own version");
        // Helm gives charts the version without its pre-release or build part (v1.33.0-vendor-build is v1.33.0 to a chart).
        assertEquals(server.split("[-+]")[0], said(fleet), "what the cluster holds says the server's version");
        assertEquals(String.valueOf(fleet.backend.real()), said(fleet, "widgets"), "the API versions the server serves");
        assertFalse(server.split("[-+]")[0].equals(dev.windlass.render.RenderRequest.DEFAULT_KUBE_VERSION), "a version other than the default");
        assertFalse(fleet.pass().plan().hasChanges(), "and then nothing changes");
    }

    private static String said(TestFleet fleet) { return said(fleet, "kube"); }

    private static String said(TestFleet fleet, String key) {
        try (KubernetesClient k = fleet.client("lab")) {
            return k.configMaps().inNamespace("ver").withName("ver").get().getData().get(key);
        }
    }
}
