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
 * {@code windlass import} on a clone; the branch pushed; and {@code windlass plan --base main --head} that branch, the
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
                return c.write("windlass/clusters.yaml", clusters);
            });
            var settled = fleet.settle();
            assertTrue(settled.desired().apps().containsKey("helm-guestbook"), settled.desired().apps().keySet().toString());

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
            for (String app : java.util.List.of("guestbook", "helm-guestbook", "kustomize-guestbook", "preview-blue", "preview-green", "root")) {
                assertTrue(out.toString().contains("| " + app + " | "), app + " is in the plan, under the same name:\n" + out);
            }
        }
    }
}
