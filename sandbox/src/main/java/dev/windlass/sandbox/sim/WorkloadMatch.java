package dev.windlass.sandbox.sim;

import io.fabric8.kubernetes.api.model.HasMetadata;

import java.util.Locale;
import java.util.Map;

/**
 * Which workloads a fault applies to. A null field matches anything. Kind is kept in lower case, so that
 * "Deployment" and "deployment" name the same fault and lifting one lifts the other. Start from {@link #named} or
 * {@link #app} and narrow with {@link #onCluster}, {@link #inNamespace} and {@link #ofKind}.
 */
public record WorkloadMatch(String cluster, String namespace, String kind, String name, String app) {

    public WorkloadMatch {
        kind = kind == null ? null : kind.toLowerCase(Locale.ROOT);
    }

    /** One object, on every cluster. */
    public static WorkloadMatch named(String namespace, String kind, String name) {
        return new WorkloadMatch(null, namespace, kind, name, null);
    }

    /** Every workload labelled {@code app=<app>}, of any kind, in any namespace, on every cluster. */
    public static WorkloadMatch app(String app) {
        return new WorkloadMatch(null, null, null, null, app);
    }

    public WorkloadMatch onCluster(String clusterName) {
        return new WorkloadMatch(clusterName, namespace, kind, name, app);
    }

    public WorkloadMatch inNamespace(String ns) {
        return new WorkloadMatch(cluster, ns, kind, name, app);
    }

    public WorkloadMatch ofKind(String k) {
        return new WorkloadMatch(cluster, namespace, k, name, app);
    }

    public boolean matches(String clusterName, HasMetadata object) {
        var meta = object.getMetadata();
        Map<String, String> labels = meta.getLabels() == null ? Map.of() : meta.getLabels();
        return (cluster == null || cluster.equals(clusterName))
                && (namespace == null || namespace.equals(meta.getNamespace()))
                && (kind == null || kind.equalsIgnoreCase(HasMetadata.getKind(object.getClass())))
                && (name == null || name.equals(meta.getName()))
                && (app == null || app.equals(labels.get("app")));
    }
}
