package dev.windlass.engine.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.git.Signers;
import dev.windlass.kubetest.Await;
import dev.windlass.kubetest.KubeApiServer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code windlass run --trusted-keys DIR --verify-commits Tip} as a process, against a real API server: a commit signed by
 * a trusted SSH key is applied, an unsigned one is not (the status branch says why, and the cluster keeps the verified
 * revision's objects), and the next signed commit is applied. Keys made by ssh-keygen at test time.
 */
class VerifiedRunIT {
    static final Path JAR = Path.of("target", "windlass.jar").toAbsolutePath();

    @TempDir Path dir;

    static String manifests(String version) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: greeting, namespace: hello}\ndata: {version: " + version + "}\n";
    }

    static String version(KubernetesClient admin) {
        ConfigMap cm = admin.configMaps().inNamespace("hello").withName("greeting").get();
        return cm == null ? null : cm.getData().get("version");
    }

    @Test void theEngineProcessAppliesOnlyCommitsSignedByATrustedKey() throws Exception {
        assertTrue(Files.isRegularFile(JAR), "the engine's jar is built in the package phase: " + JAR);
        try (KubeApiServer cluster = KubeApiServer.start(); KubernetesClient admin = cluster.newClient();
             Signers s = new Signers(dir.resolve("signers"))) {
            Path kubeconfigs = Files.createDirectories(dir.resolve("kubeconfigs"));
            Path kubeconfig = cluster.kubeconfig(kubeconfigs.resolve("lab.kubeconfig"));
            Path alice = s.sshKey("alice");
            s.trustSsh(alice, "alice@example.com");
            String c1 = s.commit("hello v1, signed", new Signers.Ssh(alice), Map.of(
                    "clusters/lab.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: lab}\nspec:\n"
                            + "  connection: {kubeconfig: {path: \"" + kubeconfig + "\"}}\n",
                    "apps/hello/app.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: hello}\n"
                            + "spec: {namespace: hello, placement: {clusterNames: [lab]}}\n",
                    "apps/hello/manifests/greeting.yaml", manifests("v1")));

            Path log = dir.resolve("engine.log");
            Process engine = engine(s, kubeconfigs, log);
            try {
                Await.until(Duration.ofSeconds(90), "the engine process to apply v1", () -> engine.isAlive() ? version(admin) : "exited",
                        v -> "v1".equals(v) || "exited".equals(v));
                assertEquals("v1", version(admin), Files.readString(log));

                String c2 = s.commit("hello v2, unsigned", Signers.UNSIGNED, Map.of("apps/hello/manifests/greeting.yaml", manifests("v2")));
                String refused = Await.until(Duration.ofSeconds(60), "the status branch to say the unsigned commit is not applied",
                        () -> status(s), text -> text.contains("commit: " + c2) || !engine.isAlive());
                assertTrue(refused.contains("outcome: UNSIGNED") && refused.contains("applying: " + c1), refused);
                assertEquals("v1", version(admin), "the unsigned commit's change is not on the cluster");
                String body = s.git("log", "-1", "--format=%B", "windlass/status");
                assertTrue(body.contains("Not applied: commit " + c2.substring(0, 7) + " is not signed; nothing of it is applied; still applying "
                        + c1.substring(0, 7)), body);

                s.commit("hello v3, signed", new Signers.Ssh(alice), Map.of("apps/hello/manifests/greeting.yaml", manifests("v3")));
                Await.until(Duration.ofSeconds(60), "the engine process to apply v3", () -> engine.isAlive() ? version(admin) : "exited",
                        v -> "v3".equals(v) || "exited".equals(v));
                assertEquals("v3", version(admin), Files.readString(log));
            } finally {
                engine.destroy();
                engine.waitFor();
            }
            String output = Files.readString(log);
            assertTrue(output.contains("trusted keys: " + s.trusted + " (0 OpenPGP keys, allowed_signers); --verify-commits Tip"), output);
        }
    }

    /** The keys from a Secret in the engine's namespace ({@code --trusted-keys-secret}), read through the management cluster. */
    @Test void theKeysMayComeFromASecretInTheEnginesNamespace() throws Exception {
        assertTrue(Files.isRegularFile(JAR), "the engine's jar is built in the package phase: " + JAR);
        try (KubeApiServer cluster = KubeApiServer.start(); KubernetesClient admin = cluster.newClient();
             Signers s = new Signers(dir.resolve("signers"))) {
            Path kubeconfigs = Files.createDirectories(dir.resolve("kubeconfigs"));
            Path kubeconfig = cluster.kubeconfig(kubeconfigs.resolve("lab.kubeconfig"));
            Path alice = s.sshKey("alice");
            s.trustSsh(alice, "alice@example.com");
            String gpg = s.gpgKey("Bob", "bob@example.com");
            s.trustGpg(gpg, "bob.asc");
            admin.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata().withName("engine-ns")
                    .endMetadata().build()).create();
            admin.secrets().inNamespace("engine-ns").resource(new io.fabric8.kubernetes.api.model.SecretBuilder().withNewMetadata()
                    .withName("trusted-keys").endMetadata()
                    .addToStringData("allowed_signers", Files.readString(s.trusted.resolve("allowed_signers")))
                    .addToStringData("bob.asc", Files.readString(s.trusted.resolve("bob.asc"))).build()).create();
            s.commit("hello v1, signed by bob", new Signers.Gpg(gpg), Map.of(
                    "clusters/lab.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: lab}\nspec:\n"
                            + "  connection: {kubeconfig: {path: \"" + kubeconfig + "\"}}\n",
                    "apps/hello/app.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: hello}\n"
                            + "spec: {namespace: hello, placement: {clusterNames: [lab]}}\n",
                    "apps/hello/manifests/greeting.yaml", manifests("v1")));

            Path log = dir.resolve("engine.log");
            Process engine = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", JAR.toString(),
                    "run", "--repo", s.work.resolve(".git").toString(), "--interval", "1s", "--workdir", dir.resolve("mirror").toString(),
                    "--listen", "127.0.0.1:0", "--kubeconfig-dir", kubeconfigs.toString(), "--namespace", "engine-ns",
                    "--management-kubeconfig", cluster.kubeconfig(dir.resolve("management.kubeconfig")).toString(),
                    "--trusted-keys-secret", "trusted-keys", "--verify-commits", "Tip")
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                Await.until(Duration.ofSeconds(90), "the engine process to apply v1", () -> engine.isAlive() ? version(admin) : "exited",
                        v -> "v1".equals(v) || "exited".equals(v));
                assertEquals("v1", version(admin), Files.readString(log));
                String c2 = s.commit("hello v2, unsigned", Signers.UNSIGNED, Map.of("apps/hello/manifests/greeting.yaml", manifests("v2")));
                Await.until(Duration.ofSeconds(60), "the status branch to say the unsigned commit is not applied",
                        () -> status(s), text -> text.contains("commit: " + c2) || !engine.isAlive());
                assertEquals("v1", version(admin), "the unsigned commit's change is not on the cluster");
                s.commit("hello v3, signed by alice", new Signers.Ssh(alice), Map.of("apps/hello/manifests/greeting.yaml", manifests("v3")));
                Await.until(Duration.ofSeconds(60), "the engine process to apply v3", () -> engine.isAlive() ? version(admin) : "exited",
                        v -> "v3".equals(v) || "exited".equals(v));
                assertEquals("v3", version(admin), Files.readString(log));
            } finally {
                engine.destroy();
                engine.waitFor();
            }
            String output = Files.readString(log);
            assertTrue(output.contains("(1 OpenPGP key, allowed_signers) (with Secret engine-ns/trusted-keys); --verify-commits Tip"), output);
        }
    }

    /**
     * The engine is killed (SIGKILL) right as it applies a newly verified commit, before or after it records it; the tip then
     * moves to an unsigned commit. The restarted engine applies nothing of the unsigned commit: what the cluster holds is
     * only ever a verified revision's, and the status says which commit it refused.
     */
    @Test void aKillDashNineAsAVerifiedCommitIsAppliedLeavesNothingUnverifiedAppliedAfterTheRestart() throws Exception {
        assertTrue(Files.isRegularFile(JAR), "the engine's jar is built in the package phase: " + JAR);
        try (KubeApiServer cluster = KubeApiServer.start(); KubernetesClient admin = cluster.newClient();
             Signers s = new Signers(dir.resolve("signers"))) {
            Path kubeconfigs = Files.createDirectories(dir.resolve("kubeconfigs"));
            Path kubeconfig = cluster.kubeconfig(kubeconfigs.resolve("lab.kubeconfig"));
            Path alice = s.sshKey("alice");
            s.trustSsh(alice, "alice@example.com");
            String c1 = s.commit("hello v1, signed", new Signers.Ssh(alice), Map.of(
                    "clusters/lab.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: lab}\nspec:\n"
                            + "  connection: {kubeconfig: {path: \"" + kubeconfig + "\"}}\n",
                    "apps/hello/app.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: hello}\n"
                            + "spec: {namespace: hello, placement: {clusterNames: [lab]}}\n",
                    "apps/hello/manifests/greeting.yaml", manifests("v1")));
            String c2 = null;
            Process first = engine(s, kubeconfigs, dir.resolve("first.log"));
            try {
                Await.until(Duration.ofSeconds(90), "the engine process to apply v1", () -> first.isAlive() ? version(admin) : "exited",
                        v -> "v1".equals(v) || "exited".equals(v));
                c2 = s.commit("hello v2, signed", new Signers.Ssh(alice), Map.of("apps/hello/manifests/greeting.yaml", manifests("v2")));
                // Killed the moment v2 reaches the cluster: its status commit may or may not be written.
                Await.until(Duration.ofSeconds(60), "the engine process to apply v2", () -> first.isAlive() ? version(admin) : "exited",
                        v -> "v2".equals(v) || "exited".equals(v));
            } finally {
                first.destroyForcibly();
                first.waitFor();
            }
            assertEquals("v2", version(admin), Files.readString(dir.resolve("first.log")));
            String unsigned = s.commit("hello v3, unsigned", Signers.UNSIGNED, Map.of("apps/hello/manifests/greeting.yaml", manifests("v3")));

            Process second = engine(s, kubeconfigs, dir.resolve("second.log"));
            try {
                String refused = Await.until(Duration.ofSeconds(90), "the restarted engine to refuse the unsigned tip",
                        () -> second.isAlive() ? status(s) : "exited", text -> text.contains("commit: " + unsigned) || "exited".equals(text));
                assertTrue(refused.contains("outcome: UNSIGNED"), refused + "\n" + Files.readString(dir.resolve("second.log")));
                // The pass that refused the tip applied a verified revision: the one it names, whose value the cluster holds.
                assertTrue(refused.contains("applying: " + c1) || refused.contains("applying: " + c2), refused);
                String applying = refused.contains("applying: " + c2) ? "v2" : "v1";
                assertEquals(applying, Await.until(Duration.ofSeconds(30), "the cluster to hold the verified revision's value",
                        () -> version(admin), applying::equals), "never the unsigned commit's v3");
            } finally {
                second.destroy();
                second.waitFor();
            }
        }
    }

    private Process engine(Signers s, Path kubeconfigs, Path log) throws java.io.IOException {
        return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", JAR.toString(),
                "run", "--repo", s.work.resolve(".git").toString(), "--interval", "1s", "--workdir", dir.resolve("mirror").toString(),
                "--listen", "127.0.0.1:0", "--kubeconfig-dir", kubeconfigs.toString(),
                "--trusted-keys", s.trusted.toString(), "--verify-commits", "Tip")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static String status(Signers s) {
        try {
            return s.git("show", "windlass/status:status/verification.yaml");
        } catch (Exception e) {
            return "";
        }
    }
}
