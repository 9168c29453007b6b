package dev.windlass.applier;

import dev.windlass.policy.plan.ActionReason;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.applier.support.RealCluster;
import dev.windlass.applier.support.RealWorldFixtures;
import dev.windlass.kubetest.RequestCounts;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Application.ApplyStrategy;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.parse.RepoParser;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Operation;
import dev.windlass.policy.plan.Outcome;
import dev.windlass.policy.plan.Stage;
import dev.windlass.policy.source.MapSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Manifests nobody here wrote (Online Boutique, podinfo's database, ingress-nginx's static install, kube-prometheus
 * with CustomResourceDefinitions up to 810 KB and {@code *List} kinds, cert-manager's CRDs), parsed as Windlass parses
 * a repo and server-side applied to a real API server reached through a kubeconfig: every object is created, and
 * applying them again writes nothing at all, as the server counts it. No last-applied copy is written under
 * server-side apply, so the large CRDs stay within the server's 256 KiB limit on annotations.
 */
class RealWorldManifestsIT {

    private static RealCluster cluster;
    @TempDir static Path dir;

    @BeforeAll static void start() { cluster = RealCluster.start(); }

    @AfterAll static void stop() { cluster.close(); }

    @ParameterizedTest
    @ValueSource(strings = {"online-boutique", "podinfo-database", "ingress-nginx", "kube-prometheus", "cert-manager-crds"})
    void everyObjectIsCreatedThenLeftAlone(String folder) throws IOException {
        Path kubeconfig = cluster.server().kubeconfig(dir.resolve(folder + ".kubeconfig"));
        DesiredState desired = RepoParser.parse(repo(RealWorldFixtures.folder().resolve(folder), folder, kubeconfig));
        assertEquals(List.of(), desired.diagnostics().stream().filter(d -> d.isError()).toList());
        Application app = desired.apps().get(folder);
        ClusterClients clients = new ClusterClients();
        clients.connect(desired.clusters().get(RealCluster.NAME));

        try (Applier applier = new Applier(clients)) {
            List<ActionResult> first = applier.execute(stage(app, Operation.Create));
            assertTrue(first.size() > 5, folder + " has " + first.size() + " objects");
            assertTrue(first.stream().allMatch(r -> r.outcome() == Outcome.Created), failures(first));
            for (Manifest m : app.manifests()) {
                if (m.implicit()) continue;
                var kind = cluster.admin().genericKubernetesResources(m.apiVersion(), m.ref().kind());
                var live = m.ref().namespaced()
                        ? kind.inNamespace(m.ref().namespace()).withName(m.ref().name()).get()
                        : kind.withName(m.ref().name()).get();
                assertNotNull(live, m.ref() + " on the cluster");
                Map<String, String> annotations = live.getMetadata().getAnnotations();
                assertTrue(annotations == null || !annotations.containsKey("windlass.dev/last-applied"), m.ref() + " has no last-applied copy");
            }

            RequestCounts before = cluster.counts();
            List<ActionResult> again = applier.execute(stage(app, Operation.Update));
            RequestCounts between = cluster.countsSince(before);
            assertTrue(again.stream().allMatch(r -> r.outcome() == Outcome.Unchanged), failures(again));
            assertEquals(0, between.writes(), between.samples().toString());
        }
    }

    /**
     * Every manifest, namespaces and CustomResourceDefinitions first, as the planner would send them to a cluster with
     * server-side apply.
     */
    private static Stage stage(Application app, Operation operation) {
        List<Action> actions = app.manifests().stream()
                .sorted(Comparator.comparing((Manifest m) -> !m.ref().kind().equals("Namespace"))
                        .thenComparing(m -> !m.ref().kind().equals("CustomResourceDefinition")))
                .map(m -> new Action(app.name(), RealCluster.NAME, m.ref(), m.apiVersion(), operation, new ActionReason.ChangedInGit(), List.of(), m,
                        ApplyStrategy.ServerSide, false))
                .toList();
        return new Stage("apply", "", actions);
    }

    /** A config repo with one cluster (this server, by kubeconfig) and the folder as one application. */
    private static MapSnapshot repo(Path manifests, String folder, Path kubeconfig) throws IOException {
        Map<String, String> files = new TreeMap<>();
        files.put("clusters/lab.yaml", """
                apiVersion: windlass.dev/v1alpha1
                kind: Cluster
                metadata: {name: lab, labels: {env: lab}}
                spec: {connection: {kubeconfig: {path: "%s"}}}
                """.formatted(kubeconfig));
        files.put("apps/" + folder + "/app.yaml", """
                apiVersion: windlass.dev/v1alpha1
                kind: Application
                metadata: {name: %s}
                spec:
                  namespace: %s
                  placement: {clusterNames: [lab]}
                """.formatted(folder, folder));
        try (Stream<Path> yamls = Files.walk(manifests)) {
            for (Path f : yamls.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                files.put("apps/" + folder + "/manifests/" + manifests.relativize(f).toString().replace('\\', '/'), Files.readString(f));
            }
        }
        return MapSnapshot.ofStrings("test", files);
    }

    private static String failures(List<ActionResult> results) {
        return results.stream().filter(r -> r.outcome() != Outcome.Created && r.outcome() != Outcome.Unchanged)
                .map(r -> r.action().object() + ": " + r.outcome() + " " + r.message()).toList().toString();
    }
}
