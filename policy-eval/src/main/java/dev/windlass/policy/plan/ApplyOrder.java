package dev.windlass.policy.plan;

import java.util.Comparator;
import java.util.List;

/**
 * The order objects are applied in on one cluster: Namespaces and CRDs first (others may need them),
 * then {@code windlass.dev/wave}, then kind in dependency order, then namespace and name.
 * Deletes run in the reverse order.
 */
final class ApplyOrder {
    private static final List<String> KINDS = List.of(
            "Namespace", "CustomResourceDefinition", "NetworkPolicy", "ResourceQuota", "LimitRange",
            "PodSecurityPolicy", "PodDisruptionBudget", "ServiceAccount", "Secret", "ConfigMap", "StorageClass",
            "PersistentVolume", "PersistentVolumeClaim", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding",
            "Service", "DaemonSet", "Pod", "ReplicationController", "ReplicaSet", "Deployment",
            "HorizontalPodAutoscaler", "StatefulSet", "Job", "CronJob", "IngressClass", "Ingress", "APIService",
            "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration");

    private ApplyOrder() {}

    static final Comparator<Action> APPLY = Comparator.comparing(Action::cluster)
            .thenComparingInt(ApplyOrder::phase)
            .thenComparingInt(a -> a.desired() == null ? 0 : a.desired().wave())
            .thenComparingInt(ApplyOrder::kindRank)
            .thenComparing(a -> a.object().kind())
            .thenComparing(a -> a.object().namespace())
            .thenComparing(a -> a.object().name())
            .thenComparing(Action::app);

    static final Comparator<Action> DELETE = Comparator.comparing(Action::cluster)
            .thenComparing(APPLY.reversed());

    private static int phase(Action a) {
        String kind = a.object().kind();
        return kind.equals("Namespace") || kind.equals("CustomResourceDefinition") ? 0 : 1;
    }

    private static int kindRank(Action a) {
        int i = KINDS.indexOf(a.object().kind());
        return i < 0 ? KINDS.size() : i;
    }
}
