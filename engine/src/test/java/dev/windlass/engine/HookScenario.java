package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionReason;
import dev.windlass.policy.state.Sync;
import dev.windlass.policy.state.TargetStatus;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/**
 * Resource hooks, end to end: an Argo CD Application with a PreSync Job and a PostSync Job (named by the server, deleted
 * once it succeeded), and a Helm chart under a native Application with pre-install Jobs ordered by weight and hooks for
 * upgrades. Each hook runs at its place in the sync and only in a sync: idle passes write nothing, as the API server
 * counts. A PreSync hook that fails holds the application's objects and runs its SyncFail hook. Run by {@code HooksIT}
 * on a real control plane, where the Jobs are run by the real job controller and kwok (a Job made to fail by a Pod no
 * node can take and a one-second active deadline), and by {@code HooksE2E} on the sandbox, whose simulator finishes
 * Jobs (and fails the one it is told to).
 */
final class HookScenario {
    private HookScenario() {}

    static final String URL = "https://git.example.com/team/guestbook.git";

    static String hookJob(String name, String annotations, String spec) {
        return """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  %s
                  annotations: {%s}
                spec:
                  backoffLimit: 0
                %s  template:
                    spec:
                      restartPolicy: Never
                      containers: [{name: run, image: alpine:3.20}]
                """.formatted(name, annotations, spec.indent(2));
    }

    static void run(TestFleet fleet) throws Exception {
        String cluster = fleet.clusterYaml("eu-1", "env: prod", 1, 0, "").replace("metadata: {name: eu-1, labels: {env: prod}}",
                "metadata: {name: eu-1, labels: {env: prod}, annotations: {argocd.windlass.dev/server: \"https://kubernetes.default.svc\"}}");
        fleet.push("an Argo CD Application with hooks, a chart with hooks", c -> c
                .write("windlass.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Settings\nspec:\n  argocd:\n    repoURLs: [" + URL + "]\n")
                .write("windlass/eu-1.yaml", cluster)
                .write("argocd/guestbook.yaml", ArgoE2E.application("guestbook", "guestbook", "{server: \"https://kubernetes.default.svc\", namespace: guestbook}", "",
                        "{prune: true, selfHeal: true}").replace(ArgoE2E.URL, URL))
                .write("guestbook/config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: guestbook-config}\ndata: {MODE: \"1\"}\n")
                .write("guestbook/deploy.yaml", """
                        apiVersion: apps/v1
                        kind: Deployment
                        metadata: {name: guestbook-ui}
                        spec:
                          replicas: 1
                          selector: {matchLabels: {app: guestbook-ui}}
                          template:
                            metadata: {labels: {app: guestbook-ui}}
                            spec: {containers: [{name: ui, image: "nginx:1.27"}]}
                        """)
                .write("guestbook/migrate.yaml", hookJob("name: migrate", "argocd.argoproj.io/hook: PreSync, argocd.argoproj.io/sync-wave: \"-1\"", ""))
                .write("guestbook/smoke.yaml", hookJob("generateName: smoke-", "argocd.argoproj.io/hook: PostSync, argocd.argoproj.io/hook-delete-policy: HookSucceeded", ""))
                .write("charts/web/Chart.yaml", "apiVersion: v2\nname: web\nversion: 0.1.0\n")
                .write("charts/web/values.yaml", "greeting: hello\n")
                .write("charts/web/templates/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web-settings}\ndata: {greeting: {{ .Values.greeting | quote }}}\n")
                .write("charts/web/templates/seed.yaml", hookJob("name: seed", "helm.sh/hook: pre-install, helm.sh/hook-weight: \"10\"", ""))
                .write("charts/web/templates/schema.yaml", hookJob("name: schema", "helm.sh/hook: \"pre-install,pre-upgrade\", helm.sh/hook-weight: \"-5\"", ""))
                .write("charts/web/templates/notify.yaml", hookJob("name: notify", "helm.sh/hook: post-upgrade", ""))
                .write("apps/web/app.yaml", """
                        apiVersion: windlass.dev/v1alpha1
                        kind: Application
                        metadata: {name: web}
                        spec:
                          namespace: web
                          placement: {clusterNames: [eu-1]}
                          source: {helm: {chart: charts/web}}
                        """));

        PassReport first = hookPass(fleet);
        assertEquals(List.of(), first.desired().diagnostics().stream().filter(Diagnostic::isError).toList());
        assertEquals(List.of(
                "guestbook Create Job.batch guestbook/migrate PreSync -1",
                "guestbook Create ConfigMap guestbook/guestbook-config",
                "guestbook Create Deployment guestbook/guestbook-ui",
                "guestbook Create Job.batch guestbook/smoke- PostSync 0",
                "web Create Job.batch web/schema PreSync -5",
                "web Create Job.batch web/seed PreSync 10",
                "web Create ConfigMap web/web-settings"), steps(first, List.of("guestbook", "web")));
        String plan = dev.windlass.policy.render.PlanMarkdown.render(first.plan(), "main");
        assertTrue(plan.contains("| + Create | Job.batch web/schema | web | pre-install hook, weight -5: runs before the application's objects; they"
                + " wait for it to succeed |"), plan);
        try (KubernetesClient k = fleet.client("eu-1")) {
            assertTrue(complete(k.batch().v1().jobs().inNamespace("guestbook").withName("migrate").get()), "the PreSync Job ran to completion");
            assertTrue(complete(k.batch().v1().jobs().inNamespace("web").withName("schema").get()));
            assertTrue(complete(k.batch().v1().jobs().inNamespace("web").withName("seed").get()));
            assertNull(k.batch().v1().jobs().inNamespace("web").withName("notify").get(), "an upgrade hook does not run at install");
            assertEquals(List.of("migrate"), k.batch().v1().jobs().inNamespace("guestbook").list().getItems().stream()
                    .filter(j -> j.getMetadata().getDeletionTimestamp() == null).map(j -> j.getMetadata().getName()).toList(),
                    "the PostSync Job was deleted once it succeeded (HookSucceeded)");
            assertNotNull(k.apps().deployments().inNamespace("guestbook").withName("guestbook-ui").get());
            assertNull(k.batch().v1().jobs().inNamespace("web").withName("seed").get().getMetadata().getLabels().get("app.kubernetes.io/managed-by"),
                    "a hook is not one of the application's managed objects");
        }
        String firstCommit = fleet.statusLog().get(0).getFullMessage();
        int schema = firstCommit.indexOf("web on eu-1: PreSync hook Job.batch web/schema succeeded");
        int seed = firstCommit.indexOf("web on eu-1: PreSync hook Job.batch web/seed succeeded");
        assertTrue(schema >= 0 && seed > schema, "weights order the hooks: " + firstCommit);
        // The server names it: a real one adds five characters, the sandbox's store a UUID.
        assertTrue(firstCommit.matches("(?s).*guestbook on eu-1: PostSync hook Job\\.batch guestbook/smoke- succeeded \\(named smoke-[a-z0-9-]+\\).*"), firstCommit);
        TargetStatus web = fleet.engine.reconciler().state().apps().get("web").target("eu-1");
        assertEquals(List.of("ConfigMap web/web-settings"), web.inventory().stream().map(e -> e.ref().toString()).toList(), "hooks are not in the inventory");

        fleet.settle();
        fleet.backend.resetWrites("eu-1");
        for (int i = 0; i < 3; i++) {
            PassReport idle = fleet.pass();
            assertFalse(idle.plan().hasChanges(), "idle pass " + i + " plans nothing:\n" + idle.plan());
        }
        assertEquals(0, fleet.backend.writes("eu-1"), "writes over 3 idle passes: " + fleet.backend.writesSeen("eu-1"));

        String schemaUid;
        try (KubernetesClient k = fleet.client("eu-1")) {
            schemaUid = k.batch().v1().jobs().inNamespace("web").withName("schema").get().getMetadata().getUid();
        }
        fleet.push("new greeting", c -> c.write("charts/web/values.yaml", "greeting: hi\n"));
        PassReport upgrade = hookPass(fleet);
        assertEquals(List.of(
                "web Create Job.batch web/schema PreSync -5",
                "web Update ConfigMap web/web-settings",
                "web Create Job.batch web/notify PostSync 0"), steps(upgrade, List.of("web")), "upgrade hooks, not install ones");
        try (KubernetesClient k = fleet.client("eu-1")) {
            Job again = k.batch().v1().jobs().inNamespace("web").withName("schema").get();
            assertFalse(again.getMetadata().getUid().equals(schemaUid), "BeforeHookCreation: the old schema Job was deleted and a new one made");
            assertTrue(complete(again));
            assertTrue(complete(k.batch().v1().jobs().inNamespace("web").withName("notify").get()));
            assertEquals("hi", k.configMaps().inNamespace("web").withName("web-settings").get().getData().get("greeting"));
        }

        fleet.push("a PreSync guard that fails, and a SyncFail hook", c -> c
                .write("guestbook/config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: guestbook-config}\ndata: {MODE: \"2\"}\n")
                .write("guestbook/guard.yaml", """
                        apiVersion: batch/v1
                        kind: Job
                        metadata:
                          name: guard
                          annotations: {argocd.argoproj.io/hook: PreSync, argocd.argoproj.io/sync-wave: "-2"}
                        spec:
                          backoffLimit: 0
                          activeDeadlineSeconds: 1
                          template:
                            spec:
                              restartPolicy: Never
                              nodeSelector: {windlass.dev/no-such-node: "true"}
                              containers: [{name: run, image: alpine:3.20}]
                        """)
                .write("guestbook/failed.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: guestbook-sync-failed\n"
                        + "  annotations: {argocd.argoproj.io/hook: SyncFail}\ndata: {note: the sync failed}\n"));
        String migrateUid;
        try (KubernetesClient k = fleet.client("eu-1")) {
            migrateUid = k.batch().v1().jobs().inNamespace("guestbook").withName("migrate").get().getMetadata().getUid();
        }
        if (!fleet.backend.real()) {
            // The sandbox does not schedule Pods nor count active deadlines: its simulator fails the Job as a crashing one fails.
            fleet.sandbox.simulator().workloadNeverReady(dev.windlass.sandbox.sim.WorkloadMatch.named("guestbook", "Job", "guard"), true);
        }
        PassReport failing = hookPass(fleet);
        assertEquals(List.of(
                "guestbook Create Job.batch guestbook/guard PreSync -2",
                "guestbook Create Job.batch guestbook/migrate PreSync -1",
                "guestbook Update ConfigMap guestbook/guestbook-config",
                "guestbook Create Job.batch guestbook/smoke- PostSync 0",
                "guestbook Create ConfigMap guestbook/guestbook-sync-failed SyncFail 0"), steps(failing, List.of("guestbook")));
        try (KubernetesClient k = fleet.client("eu-1")) {
            assertEquals("1", k.configMaps().inNamespace("guestbook").withName("guestbook-config").get().getData().get("MODE"),
                    "the failed PreSync hook held the application's objects");
            assertEquals(migrateUid, k.batch().v1().jobs().inNamespace("guestbook").withName("migrate").get().getMetadata().getUid(),
                    "the hook after the failed one did not run");
            assertNotNull(k.configMaps().inNamespace("guestbook").withName("guestbook-sync-failed").get(), "the SyncFail hook ran");
        }
        TargetStatus guestbook = fleet.engine.reconciler().state().apps().get("guestbook").target("eu-1");
        assertEquals(Sync.OutOfSync, guestbook.sync());
        assertTrue(guestbook.message().contains("PreSync hook Job.batch guestbook/guard failed: Job guard failed"), guestbook.message());
        String failedCommit = fleet.statusLog().get(0).getFullMessage();
        assertTrue(failedCommit.contains("guestbook on eu-1: PreSync hook Job.batch guestbook/guard failed: its Job failed (Job guard failed)"), failedCommit);
        assertTrue(failedCommit.contains("guestbook on eu-1: PreSync hook Job.batch guestbook/migrate not run: a hook or object before it failed"), failedCommit);

        fleet.backend.resetWrites("eu-1");
        PassReport after = fleet.pass();
        assertFalse(after.plan().hasChanges(), "the failed sync is retried after its back-off, not on the next pass:\n" + after.plan());
        assertEquals(0, fleet.backend.writes("eu-1"), "writes in the pass after the failure: " + fleet.backend.writesSeen("eu-1"));
    }

    /**
     * A pass whose hooks wait for Jobs to finish and objects to become healthy. On a real control plane the controllers
     * do that in real time; on the sandbox the simulator moves with the fleet's clock, which is also the engine's: so the
     * clock is moved on (half a second every 50 ms) only while a Job has not finished or a Deployment is not rolled out,
     * as much as the simulator needs and no more, which keeps the engine's back-off clock where a real pass leaves it.
     */
    static PassReport hookPass(TestFleet fleet) throws Exception {
        if (fleet.backend.real()) return fleet.pass();
        java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean(true);
        Thread time = Thread.ofPlatform().daemon().name("hook-scenario-time").start(() -> {
            KubernetesClient k = null;
            try {
                while (running.get()) {
                    // The engine attaches the sandbox cluster in the pass that first reads its Cluster file.
                    if (k == null && fleet.sandbox.clusters().stream().anyMatch(c -> c.name().equals("eu-1"))) k = fleet.client("eu-1");
                    if (k != null && unfinished(k)) fleet.backend.advance(fleet.clock, java.time.Duration.ofMillis(500));
                    Thread.sleep(50);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                if (k != null) k.close();
            }
        });
        try {
            return fleet.pass();
        } finally {
            running.set(false);
            time.join();
        }
    }

    /** Whether a Job on the cluster has neither completed nor failed, or a Deployment is not rolled out. */
    private static boolean unfinished(KubernetesClient k) {
        boolean jobs = k.batch().v1().jobs().inAnyNamespace().list().getItems().stream().anyMatch(j -> j.getStatus() == null
                || j.getStatus().getConditions() == null || j.getStatus().getConditions().stream()
                .noneMatch(c -> "True".equals(c.getStatus()) && ("Complete".equals(c.getType()) || "Failed".equals(c.getType()))));
        boolean deployments = k.apps().deployments().inAnyNamespace().list().getItems().stream().anyMatch(d -> d.getStatus() == null
                || d.getStatus().getObservedGeneration() == null || d.getStatus().getObservedGeneration() < d.getMetadata().getGeneration()
                || !java.util.Objects.equals(d.getStatus().getReadyReplicas(), d.getSpec().getReplicas()));
        return jobs || deployments;
    }

    /**
     * The plan's actions of each of {@code apps} in turn, each application's in the plan's order, with the phase and weight
     * of hooks. (The plan orders a cluster's actions by phase and wave across applications; within a step applications go
     * side by side.)
     */
    static List<String> steps(PassReport pass, List<String> apps) {
        return apps.stream().flatMap(app -> pass.plan().actions().stream().filter(a -> a.app().equals(app) && !a.object().kind().equals("Namespace")))
                .map(HookScenario::step).toList();
    }

    private static String step(Action a) {
        return a.app() + " " + a.operation() + " " + a.object() + (a.reason() instanceof ActionReason.HookRun h ? " " + h.phase() + " " + h.weight() : "");
    }

    static boolean complete(Job job) {
        return job != null && job.getStatus() != null && job.getStatus().getConditions() != null
                && job.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Complete") && c.getStatus().equals("True"));
    }
}
