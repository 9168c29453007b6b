package dev.windlass.engine;

import dev.windlass.render.SopsKeyMaker;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.applier.cluster.ManagementCluster;
import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.kubetest.KubeCluster;
import dev.windlass.policy.model.Diagnostic;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application that names its own decryption Secret ({@code spec.decryption.secretRef}, as a Flux Kustomization
 * does): the engine, with no key of its own, reads the Secret from its namespace on the management cluster and
 * decrypts that application's files with its keys, made by the real age-keygen. An application naming a Secret that is
 * not there is an error at the name, held alone. One real control plane is both the management and the member cluster.
 */
class SopsKeySecretIT {
    private static final String NS = "windlass-system";
    private static final String TOKEN = "api-token-2f9c81e0d7";

    @TempDir Path dir;

    @Test
    void anApplicationsOwnKeySecretDecryptsItsFiles() throws Exception {
        try (KubeCluster server = KubeCluster.start(1);
             KubernetesClient admin = server.newClient();
             SopsKeyMaker maker = new SopsKeyMaker(Files.createDirectory(dir.resolve("keymaker")));
             TestFleet fleet = new TestFleet(dir, false, ManagementCluster.of(server.config(), NS))) {
            SopsKeyMaker.AgeKey team = maker.age("team");
            admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build()).create();
            admin.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName("team-keys").endMetadata()
                    .addToData("team.agekey", Base64.getEncoder().encodeToString(Files.readAllBytes(team.file()))).build()).create();
            Path kubeconfig = server.kubeconfig(dir.resolve("lab.kubeconfig"));
            String secret = maker.encrypt("apiVersion: v1\nkind: Secret\nmetadata:\n  name: api\nstringData:\n  token: " + TOKEN + "\n", "yaml",
                    team.recipient());
            fleet.push("two applications with their own key Secrets, one of them missing", c -> c
                    .write("clusters/lab.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: lab}\n"
                            + "spec: {connection: {kubeconfig: {path: \"" + kubeconfig + "\"}}}\n")
                    .write("apps/api/app.yaml", app("api", "team-keys")).write("apps/api/manifests/secret.yaml", secret)
                    .write("apps/other/app.yaml", app("other", "missing-keys")).write("apps/other/manifests/secret.yaml", secret)
                    .write("apps/web/app.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: web}\n"
                            + "spec: {namespace: web, placement: {clusterNames: [lab]}}\n")
                    .write("apps/web/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata: {k: v}\n"));

            PassReport pass = fleet.pass();
            List<String> errors = pass.desired().diagnostics().stream().filter(Diagnostic::isError).map(Diagnostic::toString).toList();
            assertEquals(List.of("apps/other/app.yaml:9:23: the keys of spec.decryption.secretRef cannot be read: Secret " + NS
                    + "/missing-keys does not exist; create it in the engine's namespace with the private keys as *.agekey and *.asc keys"
                    + " (docs/secrets.md)"), errors);
            String token = admin.secrets().inNamespace("api").withName("api").get().getData().get("token");
            assertEquals(TOKEN, new String(Base64.getDecoder().decode(token), StandardCharsets.UTF_8), "decrypted with the application's own key");
            assertEquals(null, admin.secrets().inNamespace("other").withName("api").get(), "the application without its keys is held");
            assertEquals(Map.of("k", "v"), admin.configMaps().inNamespace("web").withName("web").get().getData(), "the others go on");
            SopsDecryptionIT.assertNoPlaintext("the status branch", SopsDecryptionIT.statusBranchText(fleet), List.of(TOKEN));
        }
    }

    private static String app(String name, String keySecret) {
        return """
                apiVersion: windlass.dev/v1alpha1
                kind: Application
                metadata: {name: %s}
                spec:
                  namespace: %s
                  placement: {clusterNames: [lab]}
                  decryption:
                    provider: sops
                    secretRef: {name: %s}
                """.formatted(name, name, keySecret);
    }
}
