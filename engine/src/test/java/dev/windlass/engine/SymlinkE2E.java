package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.cli.Main;
import dev.windlass.engine.reconcile.PassReport;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.transport.RefSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One symlink rule for {@code validate} (a working tree on disk) and the engine (Git blobs): a symbolic link is an error
 * with its path, it is never followed, and it holds the application it is in. The repo is a real Git checkout whose link
 * points out of it, committed with {@code git add} as a person would.
 */
class SymlinkE2E {
    static final String ERROR = "apps/web/manifests/secret.yaml:1:1: secret.yaml is a symbolic link; Windlass reads no symbolic links, "
            + "so replace it with the file itself";

    @TempDir Path dir;

    @Test void validateAndTheEngineReportTheSameLinkAndNeitherFollowsIt() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            Path outside = dir.resolve("host/secret.yaml");
            Files.createDirectories(outside.getParent());
            Files.writeString(outside, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: from-the-host}\ndata: {password: hunter2}\n");
            Path checkout = dir.resolve("checkout");
            try (Git git = Git.init().setInitialBranch("main").setDirectory(checkout.toFile()).call()) {
                write(checkout, "clusters/eu-1.yaml", fleet.clusterYaml("eu-1", "env: prod", 1, 0, ""));
                write(checkout, "apps/web/app.yaml", app("web"));
                write(checkout, "apps/web/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata: {a: b}\n");
                write(checkout, "apps/api/app.yaml", app("api"));
                write(checkout, "apps/api/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: api}\ndata: {a: b}\n");
                Files.createSymbolicLink(checkout.resolve("apps/web/manifests/secret.yaml"), outside);
                git.add().addFilepattern(".").call();
                git.commit().setMessage("a link out of the repo").setAuthor("Dev", "dev@example.com").setCommitter("Dev", "dev@example.com")
                        .setSign(false).call();
                git.push().setRemote(fleet.origin.toUri().toString()).setRefSpecs(new RefSpec("refs/heads/main:refs/heads/main")).call();
            }

            StringWriter validate = new StringWriter();
            assertEquals(1, Main.run(new PrintWriter(validate, true), new PrintWriter(new StringWriter(), true), "validate", checkout.toString()));
            assertEquals(ERROR + "\n" + checkout + ": 1 clusters, 2 applications (1 invalid), 1 error, 0 warnings\n", validate.toString());

            PassReport pass = fleet.pass();
            assertEquals(java.util.List.of(ERROR), pass.desired().diagnostics().stream().map(Object::toString).toList());
            assertFalse(pass.desired().apps().get("web").valid());
            assertTrue(pass.desired().apps().get("api").valid());
            try (KubernetesClient k = fleet.client("eu-1")) {
                assertNotNull(k.configMaps().inNamespace("api").withName("api").get(), "the application beside it is applied");
                assertNull(k.configMaps().inNamespace("web").withName("web").get(), "the application with the link is held");
                assertNull(k.configMaps().inNamespace("web").withName("from-the-host").get(), "the file the link points at is never read");
            }
        }
    }

    static String app(String name) {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: " + name + "}\nspec:\n  namespace: " + name
                + "\n  placement: {clusterNames: [eu-1]}\n";
    }

    static void write(Path root, String path, String text) throws java.io.IOException {
        Files.createDirectories(root.resolve(path).getParent());
        Files.writeString(root.resolve(path), text);
    }
}
