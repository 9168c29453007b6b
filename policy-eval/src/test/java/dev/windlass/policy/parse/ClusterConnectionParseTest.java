package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ways a Cluster says how it is reached: exactly one, each checked where it is written. */
class ClusterConnectionParseTest {

    private static DesiredState parse(String connection) {
        return parse(connection, "");
    }

    /** @param more more lines under spec, indented by two spaces */
    private static DesiredState parse(String connection, String more) {
        return RepoParser.parse(RepoFiles.inline("clusters/eu-1.yaml", """
                apiVersion: windlass.dev/v1alpha1
                kind: Cluster
                metadata: {name: eu-1}
                spec:
                  connection: %s
                """.formatted(connection) + more));
    }

    private static List<String> errors(DesiredState s) {
        return s.diagnostics().stream().filter(Diagnostic::isError).map(Object::toString).toList();
    }

    @Test void inClusterIsTheClusterTheEngineRunsIn() {
        DesiredState s = parse("{inCluster: true}");
        assertEquals(List.of(), errors(s));
        assertEquals(new Cluster.InCluster(), s.clusters().get("eu-1").connection());
    }

    @Test void aKubeconfigSecretRefNamesASecretAndAKeyWithADefault() {
        assertEquals(new Cluster.KubeconfigSecret("cluster-eu-1", "kubeconfig", null),
                parse("{kubeconfigSecretRef: {name: cluster-eu-1}}").clusters().get("eu-1").connection());
        assertEquals(new Cluster.KubeconfigSecret("cluster-eu-1", "config.yaml", "admin@eu-1"),
                parse("{kubeconfigSecretRef: {name: cluster-eu-1, key: config.yaml, context: admin@eu-1}}").clusters().get("eu-1").connection());
    }

    @Test void wrongConnectionsAreErrorsAtTheirPlace() {
        assertEquals(List.of("clusters/eu-1.yaml:5:15: Cluster.spec.connection must have exactly one of kubeconfig, kubeconfigSecretRef, "
                + "inCluster or sandbox, not kubeconfigSecretRef and inCluster"),
                errors(parse("{kubeconfigSecretRef: {name: a}, inCluster: true}")));
        assertEquals(List.of("clusters/eu-1.yaml:5:44: Cluster.spec.connection.kubeconfigSecretRef.name \"Not_A_Name\" is not a Secret "
                + "name (lower case letters, digits, '-' and '.', at most 253)"),
                errors(parse("{kubeconfigSecretRef: {name: Not_A_Name}}")));
        assertEquals(List.of("clusters/eu-1.yaml:5:27: Cluster.spec.connection.inCluster can only be true (the cluster the engine runs "
                + "in); for another cluster give kubeconfigSecretRef or kubeconfig"), errors(parse("{inCluster: false}")));
        assertEquals(1, errors(parse("{kubeconfigSecretRef: {key: k}}")).size());
        assertEquals(0, parse("{kubeconfigSecretRef: {key: k}}").clusters().size());
    }

    @Test void aClusterMayBePinnedToAShard() {
        DesiredState pinned = parse("{inCluster: true}", "  shard: 2\n");
        assertEquals(List.of(), errors(pinned));
        assertEquals(2, pinned.clusters().get("eu-1").shard());
        assertEquals(null, parse("{inCluster: true}").clusters().get("eu-1").shard(), "no pin: the engine's rule assigns it");
        assertEquals(List.of("clusters/eu-1.yaml:6:10: Cluster.spec.shard must be a whole number of at least 0"),
                errors(parse("{inCluster: true}", "  shard: first\n")));
        assertEquals(List.of("clusters/eu-1.yaml:6:10: Cluster.spec.shard must be a whole number of at least 0"),
                errors(parse("{inCluster: true}", "  shard: -1\n")));
    }
}
