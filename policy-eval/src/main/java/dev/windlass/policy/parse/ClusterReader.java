package dev.windlass.policy.parse;

import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.Diagnostic;
import java.util.List;

/** Reads {@code kind: Cluster}. */
final class ClusterReader {
    private ClusterReader() {}

    static Cluster read(YamlDoc doc, List<Diagnostic> out) {
        Envelope envelope = Envelope.read(doc, "Cluster", out);
        Fields root = envelope.root();
        Metadata meta = envelope.meta();
        Fields spec = envelope.spec();
        if (spec == null) {
            root.errorHere("Cluster.spec is required, with spec.connection");
            return null;
        }
        Cluster.Connection connection = connection(spec);
        boolean suspend = spec.bool("suspend", false);
        int toleration = spec.integer("unreachableTolerationSeconds", 60, 0);
        int shard = spec.integer("shard", -1, 0);
        spec.end();
        if (meta == null || connection == null) return null;
        return new Cluster(meta.name(), meta.labels(), connection, suspend, toleration, doc.location(), meta.annotations(),
                shard < 0 ? null : shard);
    }

    private static final String CHOICES = "kubeconfig: {path, context}, kubeconfigSecretRef: {name, key, context}, inCluster: true or sandbox: {nodes}";

    private static Cluster.Connection connection(Fields spec) {
        Fields c = spec.object("connection");
        if (c == null) {
            spec.errorHere("Cluster.spec.connection is required: give " + CHOICES);
            return null;
        }
        List<String> given = new java.util.ArrayList<>();
        for (String choice : List.of("kubeconfig", "kubeconfigSecretRef", "inCluster", "sandbox")) if (c.has(choice)) given.add(choice);
        Cluster.Connection result = null;
        if (given.size() > 1) {
            c.errorHere("Cluster.spec.connection must have exactly one of kubeconfig, kubeconfigSecretRef, inCluster or sandbox, not "
                    + String.join(" and ", given));
        } else if (given.isEmpty()) {
            c.errorHere("Cluster.spec.connection needs " + CHOICES);
        } else {
            result = switch (given.get(0)) {
                case "kubeconfig" -> kubeconfig(c.object("kubeconfig"));
                case "kubeconfigSecretRef" -> secretRef(c.object("kubeconfigSecretRef"));
                case "inCluster" -> inCluster(c);
                default -> sandbox(c.object("sandbox"));
            };
        }
        c.end();
        return result;
    }

    private static Cluster.Connection kubeconfig(Fields kube) {
        if (kube == null) return null;
        String path = kube.requiredString("path");
        String context = kube.string("context", null);
        kube.end();
        return path == null ? null : new Cluster.Kubeconfig(path, context);
    }

    /** The Secret's name must be one a Secret can have; it is always in the engine's own namespace. */
    private static Cluster.Connection secretRef(Fields ref) {
        if (ref == null) return null;
        String name = ref.requiredString("name");
        String key = ref.string("key", "kubeconfig");
        String context = ref.string("context", null);
        ref.end();
        if (name == null) return null;
        if (!name.matches("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?")) {
            ref.error("name", "Cluster.spec.connection.kubeconfigSecretRef.name \"" + name + "\" is not a Secret name "
                    + "(lower case letters, digits, '-' and '.', at most 253)");
            return null;
        }
        if (key.isEmpty() || !key.matches("[-._a-zA-Z0-9]{1,253}")) {
            ref.error("key", "Cluster.spec.connection.kubeconfigSecretRef.key \"" + key + "\" is not a Secret data key "
                    + "(letters, digits, '-', '_' and '.')");
            return null;
        }
        return new Cluster.KubeconfigSecret(name, key, context);
    }

    private static Cluster.Connection inCluster(Fields c) {
        if (c.bool("inCluster", false)) return new Cluster.InCluster();
        c.error("inCluster", "Cluster.spec.connection.inCluster can only be true (the cluster the engine runs in); "
                + "for another cluster give kubeconfigSecretRef or kubeconfig");
        return null;
    }

    private static Cluster.Connection sandbox(Fields sandbox) {
        if (sandbox == null) return null;
        int nodes = sandbox.integer("nodes", 1, 1);
        int cp = sandbox.integer("controlPlaneNodes", 1, 0);
        sandbox.end();
        if (cp > nodes) {
            sandbox.error("controlPlaneNodes", "Cluster.spec.connection.sandbox.controlPlaneNodes (" + cp + ") cannot exceed nodes (" + nodes + ")");
            return null;
        }
        return new Cluster.Sandbox(nodes, cp);
    }
}
