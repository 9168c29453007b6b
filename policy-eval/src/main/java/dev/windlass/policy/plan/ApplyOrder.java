package dev.windlass.policy.plan;

import java.util.Comparator;
import java.util.List;

/**
 * The order objects are applied in on one cluster: Namespaces and CRDs first (others may need them), then PreSync
 * hooks, then the other objects and Sync hooks, then PostSync hooks, then SyncFail hooks; within each, by
 * {@code windlass.dev/wave} (a hook: its weight), then kind in dependency order, then namespace and name.
 * Deletes run in the reverse order. The applier runs one phase and wave (a step, {@link #step}) after another.
 */
public final class ApplyOrder {
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
            .thenComparingInt(ApplyOrder::wave)
            .thenComparingInt(ApplyOrder::kindRank)
            .thenComparing(a -> a.object().kind())
            .thenComparing(a -> a.object().namespace())
            .thenComparing(a -> a.object().name())
            .thenComparing(Action::app);

    static final Comparator<Action> DELETE = Comparator.comparing(Action::cluster)
            .thenComparing(APPLY.reversed());

    /** 0 for Namespaces and CRDs, 1 for PreSync hooks, 2 for other objects and Sync hooks, 3 PostSync, 4 SyncFail. */
    public static int phase(Action a) {
        if (a.reason() instanceof ActionReason.HookRun run) {
            return switch (run.phase()) {
                case PreSync -> 1;
                case Sync, Skip -> 2;
                case PostSync -> 3;
                case SyncFail -> 4;
            };
        }
        String kind = a.object().kind();
        return kind.equals("Namespace") || kind.equals("CustomResourceDefinition") ? 0 : 2;
    }

    /** The wave an action is applied in: a hook's weight, an object's {@code windlass.dev/wave} (0 for a delete). */
    public static int wave(Action a) {
        if (a.reason() instanceof ActionReason.HookRun run) return run.weight();
        return a.desired() == null ? 0 : a.desired().wave();
    }

    /** The step an action belongs to: actions of one phase and wave may go side by side, steps run one after another. */
    public static long step(Action a) {
        return ((long) phase(a) << 32) | (wave(a) & 0xffffffffL);
    }

    private static int kindRank(Action a) {
        int i = KINDS.indexOf(a.object().kind());
        return i < 0 ? KINDS.size() : i;
    }
}
