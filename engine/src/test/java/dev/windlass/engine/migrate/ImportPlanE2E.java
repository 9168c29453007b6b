package dev.windlass.engine.migrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.TestFleet;
import dev.windlass.engine.cli.Main;
import dev.windlass.engine.render.AppRendering;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.transport.RefSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The round trip as a reviewer sees it: Argo CD's example apps, adopted and applied by the engine on sandbox clusters;
 * {@code windlass import} on a clone (with one Application of two sources: a chart with a value file of the repo through a
 * ref); the branch pushed; and {@code windlass plan --base main --head} that branch, the
 * plan its pull request would get, has nothing to apply: the native Applications describe the same objects on the same
 * clusters as the Argo CD ones the clusters run.
 */
class ImportPlanE2E {
    @TempDir Path dir;

    @Test
    void theImportBranchOfArgoCdsExampleAppsPlansNoChangeOnTheClustersMainApplied() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            String clusters = """
                    apiVersion: windlass.dev/v1alpha1
                    kind: Cluster
                    metadata:
                      name: in-cluster
                      annotations: {argocd.windlass.dev/server: "https://kubernetes.default.svc"}
                    spec: {connection: %s}
                    ---
                    apiVersion: windlass.dev/v1alpha1
                    kind: Cluster
                    metadata: {name: production}
                    spec: {connection: %s}
                    """.formatted(fleet.backend.connection("in-cluster", 1, 0), fleet.backend.connection("production", 1, 0));
            fleet.push("Argo CD's example apps, adopted", c -> {
                c = TestFleet.folder(ImportRoundTripTest.ARGO, "").apply(c);
                for (var e : ImportRoundTripTest.argoAdoption().entrySet()) c = c.write(e.getKey(), e.getValue());
                // An Application of two sources: a chart with a value file of the repo through a ref.
                c = c.write("argocd/apps/web.yaml", ImportRoundTripTest.SOURCES_WEB).write("envs/prod/values.yaml", ImportRoundTripTest.SOURCES_WEB_VALUES);
                return c.write("windlass/clusters.yaml", clusters);
            });
            var settled = fleet.settle();
            assertTrue(settled.desired().apps().containsKey("helm-guestbook") && settled.desired().apps().get("web").valid(),
                    settled.desired().apps().keySet() + " " + settled.desired().apps().get("web").diagnostics());

            Path clone = dir.resolve("clone");
            try (Git git = Git.cloneRepository().setURI(fleet.origin.toUri().toString()).setDirectory(clone.toFile()).setBranch("main").call()) {
                StringWriter out = new StringWriter();
                int code = ImportRun.run(clone, NativeImport.Tool.ARGOCD, "windlass-import", AppRendering.shared()::read, new PrintWriter(out, true),
                        new PrintWriter(out, true));
                assertEquals(0, code, out.toString());
                git.push().setRemote("origin").setRefSpecs(new RefSpec("refs/heads/windlass-import:refs/heads/windlass-import")).call();
            }

            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), "plan", "--repo", fleet.origin.toString(), "--workdir",
                    dir.resolve("cli").toString(), "--base", "main", "--head", "windlass-import");
            assertEquals(0, code, out + "\n" + err);
            assertTrue(out.toString().contains("**No changes**: merging this branch changes nothing on any cluster."), out.toString());
            for (String app : java.util.List.of("guestbook", "helm-guestbook", "kustomize-guestbook", "preview-blue", "preview-green", "root", "web")) {
                assertTrue(out.toString().contains("| " + app + " | "), app + " is in the plan, under the same name:\n" + out);
            }
        }
    }

    static String kustomizations(String tag, int replicas) {
        return """
                apiVersion: kustomize.toolkit.fluxcd.io/v1
                kind: Kustomization
                metadata: {name: web, namespace: flux-system}
                spec:
                  sourceRef: {kind: GitRepository, name: flux-system}
                  path: ./apps/web
                  prune: true
                  targetNamespace: web
                  images: [{name: nginx, newTag: "%s"}]
                  patches:
                    - patch: '[{"op": "replace", "path": "/spec/replicas", "value": %d}]'
                      target: {kind: Deployment, name: web}
                ---
                apiVersion: kustomize.toolkit.fluxcd.io/v1
                kind: Kustomization
                metadata: {name: releases, namespace: flux-system}
                spec:
                  dependsOn: [{name: web}]
                  sourceRef: {kind: GitRepository, name: flux-system}
                  path: ./releases
                  prune: true
                """.formatted(tag, replicas);
    }

    /**
     * The same for a Flux repo, offline: two cluster folders whose Kustomizations build one shared folder with their own
     * image and replicas (written as kustomizations of their own), and a folder of one HelmRelease of the podinfo chart
     * kept in the repo (left out of the build, and an Application of its own).
     */
    @Test
    void theImportBranchOfAFluxRepoPlansNoChangeOnTheClustersMainApplied() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            fleet.push("a Flux repo, adopted", c -> {
                c = TestFleet.folder(ImportRoundTripTest.CHART, "charts/podinfo/").apply(c);
                return c.write("windlass.yaml", ImportRoundTripTest.FLUX_ADOPTION)
                        .write("windlass/staging.yaml", fleet.clusterYaml("staging", "env: staging", 1, 0, ""))
                        .write("windlass/production.yaml", fleet.clusterYaml("production", "env: production", 1, 0, ""))
                        .write("clusters/staging/apps.yaml", kustomizations("1.27", 1))
                        .write("clusters/production/apps.yaml", kustomizations("1.26", 3))
                        .write("apps/web/kustomization.yaml", "resources: [deployment.yaml]\n")
                        .write("apps/web/deployment.yaml", """
                                apiVersion: apps/v1
                                kind: Deployment
                                metadata: {name: web}
                                spec:
                                  replicas: 2
                                  selector: {matchLabels: {app: web}}
                                  template:
                                    metadata: {labels: {app: web}}
                                    spec:
                                      containers: [{name: web, image: "nginx:1.25"}]
                                """)
                        .write("releases/kustomization.yaml", "resources: [namespace.yaml, podinfo.yaml]\n")
                        .write("releases/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: podinfo}\n")
                        .write("releases/podinfo.yaml", """
                                apiVersion: helm.toolkit.fluxcd.io/v2
                                kind: HelmRelease
                                metadata: {name: podinfo, namespace: podinfo}
                                spec:
                                  chart:
                                    spec:
                                      chart: ./charts/podinfo
                                      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}
                                  values: {replicaCount: 2}
                                """);
            });
            var settled = fleet.settle();
            assertEquals(java.util.List.of("production-podinfo", "production-releases", "production-web", "staging-podinfo", "staging-releases",
                    "staging-web"), java.util.List.copyOf(settled.desired().apps().keySet()));
            assertTrue(settled.desired().apps().values().stream().allMatch(a -> a.valid()), settled.desired().diagnostics().toString());

            Path clone = dir.resolve("clone");
            try (Git git = Git.cloneRepository().setURI(fleet.origin.toUri().toString()).setDirectory(clone.toFile()).setBranch("main").call()) {
                StringWriter out = new StringWriter();
                int code = ImportRun.run(clone, NativeImport.Tool.FLUX, "windlass-import", AppRendering.shared()::read, new PrintWriter(out, true),
                        new PrintWriter(out, true));
                assertEquals(0, code, out.toString());
                assertTrue(out.toString().contains("written  imported/staging-web/kustomization.yaml"), out.toString());
                git.push().setRemote("origin").setRefSpecs(new RefSpec("refs/heads/windlass-import:refs/heads/windlass-import")).call();
            }

            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), "plan", "--repo", fleet.origin.toString(), "--workdir",
                    dir.resolve("cli").toString(), "--base", "main", "--head", "windlass-import");
            assertEquals(0, code, out + "\n" + err);
            assertTrue(out.toString().contains("**No changes**: merging this branch changes nothing on any cluster."), out.toString());
            for (String app : java.util.List.of("production-podinfo", "production-web", "staging-podinfo", "staging-releases")) {
                assertTrue(out.toString().contains("| " + app + " | "), app + " is in the plan, under the same name:\n" + out);
            }
        }
    }
}
