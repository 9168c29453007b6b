package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.state.Health;
import dev.windlass.policy.state.Sync;
import dev.windlass.policy.state.TargetStatus;
import dev.windlass.render.ChartMirrors;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * fluxcd/flux2-kustomize-helm-example, byte for byte, with only the cluster mapping added (windlass.yaml and the Clusters
 * staging and production), reconciled onto two real control planes (kube-apiserver, controller-manager, scheduler, kwok
 * nodes). Its charts come from the tests' own chart repository and OCI registry on loopback, under the names and
 * versions they are published with (scripts/chart-fixtures.sh packages them from their publishers' sources), reached
 * through the engine's --chart-mirror, as an air-gapped engine would: the repo still names stefanprodan.github.io,
 * quay.io and docker.io. cert-manager's range {@code 1.x} picks the tag {@code v1.21.2}, which Helm alone reads as no
 * version.
 *
 * <p>The control planes call no admission webhook: kwok runs no Pod, so cert-manager's webhook (failurePolicy Fail)
 * could never answer, and the ClusterIssuer would be refused with "failed calling webhook" (what happens with webhooks
 * on: the API server's call to cert-manager-webhook.cert-manager.svc fails, HTTP 500). Helm hook Jobs (cert-manager's
 * startupapicheck, Envoy Gateway's certgen) are applied as objects and complete as kwok completes every Job's Pods: no
 * check or certificate generation really runs.
 *
 * <p>infra-configs depends on infra-controllers, whose {@code wait: true} makes it wait for cert-manager's and Envoy
 * Gateway's releases: no write of infra-configs is refused, and on each cluster the Gateway is written in a later pass
 * than Envoy Gateway's chart wrote the Gateway CRD (before wait was followed, the Gateway was refused once, HTTP 404).
 */
class FluxExampleIT {
    static final Path FIXTURE = Path.of("..", "test-fixtures", "real-world", "flux2-kustomize-helm-example");
    static final List<String> CLUSTERS = List.of("staging", "production");
    static final List<String> APPS = List.of("apps", "cert-manager", "envoy-gateway", "infra-configs", "infra-controllers", "podinfo");

    @TempDir Path dir;

    @Test
    void theFluxExampleIsReconciledOnRealControlPlanesAndThenLeftAlone() throws Exception {
        try (ChartServers charts = ChartServers.start(dir, List.of("podinfo-6.14.1.tgz"))) {
            charts.push("cert-manager-v1.21.2.tgz", "jetstack/charts");
            charts.push("gateway-helm-v1.9.1.tgz", "envoyproxy");
            charts.push("gateway-helm-1.9.1.tgz", "envoyproxy");
            // What the engine's flags --chart-mirror set: the repo's sources, served from loopback.
            System.setProperty(ChartMirrors.PROPERTY, "https://stefanprodan.github.io/podinfo=" + charts.repositoryUrl()
                    + ",oci://quay.io/jetstack=" + charts.registryUrl() + "/jetstack,oci://docker.io/envoyproxy=" + charts.registryUrl() + "/envoyproxy");
            Path fleetDir = Files.createDirectories(dir.resolve("fleet"));
            ControlPlanes planes = new ControlPlanes(fleetDir, false);
            try (TestFleet fleet = new TestFleet(fleetDir, planes)) {
                fleet.push("the Flux example, adopted", c -> TestFleet.folder(FIXTURE, "").apply(c)
                        .write("windlass.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Settings\nspec:\n  flux:\n    clusters:\n      - path: clusters/{cluster}\n")
                        .write("windlass/staging.yaml", fleet.clusterYaml("staging", "env: staging", 2, 0, ""))
                        .write("windlass/production.yaml", fleet.clusterYaml("production", "env: production", 2, 0, "")));

                List<PassReport> passes = new ArrayList<>();
                PassReport last = settle(fleet, passes);
                // infra-configs depends on infra-controllers, whose wait: true makes it wait for cert-manager's and Envoy
                // Gateway's releases: its Gateway and ClusterIssuer go once their charts' CRDs are there, never refused.
                List<String> failed = new ArrayList<>();
                Map<String, Integer> firstWritten = new TreeMap<>();  // first pass that wrote each object
                                for (int i = 0; i < passes.size(); i++) {
                    for (var r : passes.get(i).applied().results()) {
                        String what = r.action().app() + " " + r.action().object();
                        if (r.outcome() == dev.windlass.policy.plan.Outcome.Failed) failed.add("pass " + i + ": " + what + ": " + r.message());
                        if (r.outcome() == dev.windlass.policy.plan.Outcome.Created || r.outcome() == dev.windlass.policy.plan.Outcome.Configured) {
                            firstWritten.putIfAbsent(what, i);
                        }
                    }
                }
                assertEquals(List.of(), failed.stream().filter(f -> f.contains("-infra-configs ")).toList(), "refused writes of infra-configs");
                for (String cluster : CLUSTERS) {
                    Integer gateway = firstWritten.get(cluster + "-infra-configs Gateway.gateway.networking.k8s.io envoy-gateway-system/envoy");
                    Integer crd = firstWritten.get(cluster + "-envoy-gateway CustomResourceDefinition.apiextensions.k8s.io gateways.gateway.networking.k8s.io");
                    assertNotNull(gateway, "the Gateway written on " + cluster + ": " + firstWritten.keySet());
                    assertNotNull(crd, "the Gateway CRD written on " + cluster + ": " + firstWritten.keySet());
                    assertTrue(crd < gateway, "on " + cluster + " the Gateway's CRD (pass " + crd + ") comes before the Gateway (pass " + gateway + ")");
                }
                List<String> expected = CLUSTERS.stream().flatMap(c -> APPS.stream().map(a -> c + "-" + a)).sorted().toList();
                assertEquals(expected, List.copyOf(last.desired().apps().keySet()));
                assertEquals(List.of(), last.desired().diagnostics().stream().filter(Diagnostic::isError).toList());

                for (String cluster : CLUSTERS) {
                    try (KubernetesClient k = fleet.client(cluster)) {
                        onTheCluster(k, cluster);
                    }
                }
                assertTrue(fleet.statusLog().size() >= 2, "the passes recorded their status");
                String podinfo = fleet.statusFile("status/apps/staging-podinfo.yaml");
                assertNotNull(podinfo, "staging-podinfo's status is recorded");
                assertTrue(podinfo.contains("clusters/staging/apps.yaml"), "the status names the Kustomization it came from:\n" + podinfo);

                // Envoy Gateway's certgen Job is deleted by its own ttlSecondsAfterFinished (30 s): it ran, and is not run again.
                for (String cluster : CLUSTERS) {
                    try (KubernetesClient k = fleet.client(cluster)) {
                        dev.windlass.kubetest.Await.until(Duration.ofSeconds(90), "the certgen Job on " + cluster + " to be deleted after its TTL",
                                () -> k.batch().v1().jobs().inNamespace("envoy-gateway-system").withName("envoy-gateway-gateway-helm-certgen").get(),
                                j -> j == null);
                    }
                }
                PassReport afterTtl = fleet.passLater();
                assertFalse(afterTtl.plan().hasChanges(), "a Job removed after its TTL is not created again:\n" + afterTtl.plan().actions());
                planes.resetWrites("staging");
                planes.resetWrites("production");
                for (int i = 0; i < 3; i++) {
                    PassReport idle = fleet.passLater();
                    assertFalse(idle.plan().hasChanges(), "idle pass " + i + " plans nothing:\n" + idle.plan().actions());
                    assertFalse(idle.committed(), "idle pass " + i + " records nothing");
                    assertEquals(0, idle.renders(), "idle pass " + i + " renders nothing");
                }
                assertEquals(Map.of(), planes.objectWritesByResource("staging"), "writes to staging over 3 idle passes");
                assertEquals(Map.of(), planes.objectWritesByResource("production"), "writes to production over 3 idle passes");
                try (KubernetesClient k = fleet.client("staging")) {
                    assertNull(k.batch().v1().jobs().inNamespace("envoy-gateway-system").withName("envoy-gateway-gateway-helm-certgen").get(),
                            "the certgen Job is not created again");
                }

                // Moving for good: the import branch of this very repo changes nothing on the clusters that run it.
                String plan = importThenPlan(fleet, fleetDir, System.getProperty(ChartMirrors.PROPERTY));
                assertTrue(plan.contains("**No changes**: merging this branch changes nothing on any cluster."), plan);
            } finally {
                System.clearProperty(ChartMirrors.PROPERTY);
            }
        }
    }

    /**
     * As a team moving for good does it, with the production jar in processes of its own: {@code windlass import --from
     * flux} on a clone of the origin, the branch pushed, and {@code windlass plan --base main --head} that branch, the
     * plan its pull request would get. The charts come from the same mirrors, given as the engine's setting.
     */
    private static String importThenPlan(TestFleet fleet, Path work, String mirrors) throws Exception {
        Path clone = work.resolve("import-clone");
        try (org.eclipse.jgit.api.Git git = org.eclipse.jgit.api.Git.cloneRepository().setURI(fleet.origin.toUri().toString())
                .setDirectory(clone.toFile()).setBranch("main").call()) {
            // Exit 1: written in part. cert-manager's and Envoy Gateway's releases create their charts' CRDs once and never
            // update them (upgrade.crds: Skip, Flux's default), which a native Application cannot say: those two, and the
            // Kustomizations read together with them, stay as Flux reads them; the plan below covers both kinds.
            String imported = windlass(work, mirrors, 1, "import", "--from", "flux", clone.toString());
            assertTrue(imported.contains("wrote 6 applications as native Windlass objects on the new branch windlass-import-flux"), imported);
            assertTrue(imported.contains("infrastructure/controllers/cert-manager.yaml:23:1: HelmRelease cert-manager creates its chart's"
                    + " CustomResourceDefinitions once and never updates them (upgrade.crds: Skip"), imported);
            git.push().setRemote("origin").setRefSpecs(new org.eclipse.jgit.transport.RefSpec("refs/heads/windlass-import-flux:refs/heads/windlass-import-flux"))
                    .call();
        }
        return windlass(work, mirrors, 0, "plan", "--repo", fleet.origin.toString(), "--workdir", work.resolve("plan-cli").toString(), "--kubeconfig-dir",
                work.toString(), "--base", "main", "--head", "windlass-import-flux");
    }

    /** {@code target/windlass.jar} with these arguments and chart mirrors; what it printed, once it exited {@code exit}. */
    private static String windlass(Path work, String mirrors, int exit, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                Path.of("target", "windlass.jar").toAbsolutePath().toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true);
        pb.environment().put(ChartMirrors.ENV, mirrors);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(exit, p.waitFor(), String.join(" ", args) + " printed:\n" + out);
        return out;
    }

    /**
     * Passes, the engine's clock moved on 30 s each, until every application is Synced and Healthy on its cluster; each
     * pass is added to {@code passes}, in order.
     */
    private static PassReport settle(TestFleet fleet, List<PassReport> passes) throws Exception {
        PassReport r = fleet.pass();
        passes.add(r);
        SortedMap<String, String> states = new TreeMap<>();
        for (int i = 0; i < 20; i++) {
            r = fleet.passAfter(Duration.ofSeconds(30));
            passes.add(r);
            states.clear();
            boolean done = !r.plan().hasChanges() && r.plan().held().isEmpty();
            for (var e : fleet.engine.reconciler().state().apps().entrySet()) {
                for (String cluster : CLUSTERS) {
                    TargetStatus t = e.getValue().target(cluster);
                    if (t == null) continue;
                    states.put(e.getKey() + "@" + cluster, t.sync() + " " + t.health() + (t.message().isEmpty() ? "" : ": " + t.message()));
                    done &= t.sync() == Sync.Synced && t.health() == Health.Healthy;
                }
            }
            if (done && states.size() == CLUSTERS.size() * APPS.size()) return r;
        }
        throw new AssertionError("not every application is Synced and Healthy: " + String.join("\n", states.entrySet().stream()
                .map(e -> e.getKey() + " " + e.getValue()).toList()));
    }

    /** What a user sees on each cluster: the namespaces, the charts' workloads rolled out, the configs with the cluster's patch. */
    private static void onTheCluster(KubernetesClient k, String cluster) {
        for (String[] ns : List.of(new String[] {"cert-manager", "sre-team"}, new String[] {"envoy-gateway-system", "sre-team"},
                new String[] {"podinfo", "dev-team"})) {
            var namespace = k.namespaces().withName(ns[0]).get();
            assertNotNull(namespace, ns[0] + " on " + cluster);
            assertEquals(ns[1], namespace.getMetadata().getLabels().get("toolkit.fluxcd.io/tenant"), ns[0] + " on " + cluster);
        }
        List<String> notReady = new ArrayList<>();
        for (String[] d : List.of(new String[] {"cert-manager", "cert-manager"}, new String[] {"cert-manager", "cert-manager-cainjector"},
                new String[] {"cert-manager", "cert-manager-webhook"}, new String[] {"envoy-gateway-system", "envoy-gateway"},
                new String[] {"podinfo", "podinfo"}, new String[] {"podinfo", "podinfo-redis"})) {
            Deployment dep = k.apps().deployments().inNamespace(d[0]).withName(d[1]).get();
            assertNotNull(dep, d[0] + "/" + d[1] + " on " + cluster);
            int want = dep.getSpec().getReplicas() == null ? 1 : dep.getSpec().getReplicas();
            if (dep.getStatus() == null || dep.getStatus().getReadyReplicas() == null || dep.getStatus().getReadyReplicas() != want) notReady.add(d[1]);
        }
        assertEquals(List.of(), notReady, "Deployments not rolled out on " + cluster);

        Deployment certManager = k.apps().deployments().inNamespace("cert-manager").withName("cert-manager").get();
        assertEquals("cert-manager-v1.21.2", certManager.getMetadata().getLabels().get("helm.sh/chart"), "1.x picked the tag v1.21.2");
        assertEquals("quay.io/jetstack/cert-manager-controller:v1.21.2", image(certManager));
        assertEquals("docker.io/envoyproxy/gateway:v1.9.1", image(k.apps().deployments().inNamespace("envoy-gateway-system").withName("envoy-gateway").get()));
        assertEquals("ghcr.io/stefanprodan/podinfo:6.14.1", image(k.apps().deployments().inNamespace("podinfo").withName("podinfo").get()));
        assertEquals("public.ecr.aws/docker/library/redis:8.6.2", image(k.apps().deployments().inNamespace("podinfo").withName("podinfo-redis").get()),
                "the base release's values");
        GenericKubernetesResource route = k.genericKubernetesResources("gateway.networking.k8s.io/v1", "HTTPRoute").inNamespace("podinfo").withName("podinfo").get();
        assertNotNull(route, "podinfo's HTTPRoute on " + cluster);
        assertEquals(List.of("podinfo." + cluster), spec(route).get("hostnames"), "the " + cluster + " patch's values");

        for (String[] job : List.of(new String[] {"cert-manager", "cert-manager-startupapicheck"},
                new String[] {"envoy-gateway-system", "envoy-gateway-gateway-helm-certgen"})) {
            Job j = k.batch().v1().jobs().inNamespace(job[0]).withName(job[1]).get();
            // The certgen Job may already be gone: its ttlSecondsAfterFinished is 30 s.
            if (j != null) assertEquals(Integer.valueOf(1), j.getStatus().getSucceeded(), job[1] + " on " + cluster);
        }

        GenericKubernetesResource issuer = k.genericKubernetesResources("cert-manager.io/v1", "ClusterIssuer").withName("letsencrypt").get();
        assertNotNull(issuer, "the ClusterIssuer on " + cluster);
        assertNull(issuer.getMetadata().getNamespace(), "a ClusterIssuer is cluster-scoped");
        @SuppressWarnings("unchecked") Map<String, Object> acme = (Map<String, Object>) spec(issuer).get("acme");
        assertEquals(cluster.equals("staging") ? "https://acme-staging-v02.api.letsencrypt.org/directory" : "https://acme-v02.api.letsencrypt.org/directory",
                acme.get("server"), "the ClusterIssuer's server, as " + cluster + "'s infra-configs patches it");
        assertNotNull(k.genericKubernetesResources("gateway.networking.k8s.io/v1", "GatewayClass").withName("envoy").get(), "GatewayClass envoy on " + cluster);
        assertNotNull(k.genericKubernetesResources("gateway.networking.k8s.io/v1", "Gateway").inNamespace("envoy-gateway-system").withName("envoy").get(),
                "Gateway envoy on " + cluster);
    }

    private static String image(Deployment d) { return d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage(); }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource r) { return (Map<String, Object>) r.getAdditionalProperties().get("spec"); }
}
