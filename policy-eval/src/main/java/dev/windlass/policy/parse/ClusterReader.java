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
        spec.end();
        if (meta == null || connection == null) return null;
        return new Cluster(meta.name(), meta.labels(), connection, suspend, toleration, doc.location(), meta.annotations());
    }

    private static Cluster.Connection connection(Fields spec) {
        Fields c = spec.object("connection");
        if (c == null) {
            spec.errorHere("Cluster.spec.connection is required: give kubeconfig: {path, context} or sandbox: {nodes}");
            return null;
        }
        Fields kube = c.object("kubeconfig");
        Fields sandbox = c.object("sandbox");
        Cluster.Connection result = null;
        if (kube != null && sandbox != null) {
            c.errorHere("Cluster.spec.connection must have exactly one of kubeconfig or sandbox, not both");
        } else if (kube != null) {
            String path = kube.requiredString("path");
            String context = kube.string("context", null);
            kube.end();
            if (path != null) result = new Cluster.Kubeconfig(path, context);
        } else if (sandbox != null) {
            int nodes = sandbox.integer("nodes", 1, 1);
            int cp = sandbox.integer("controlPlaneNodes", 1, 0);
            sandbox.end();
            if (cp > nodes) sandbox.error("controlPlaneNodes", "Cluster.spec.connection.sandbox.controlPlaneNodes (" + cp + ") cannot exceed nodes (" + nodes + ")");
            else result = new Cluster.Sandbox(nodes, cp);
        } else {
            c.errorHere("Cluster.spec.connection needs kubeconfig: {path, context} or sandbox: {nodes}");
        }
        c.end();
        return result;
    }
}
