package dev.windlass.applier.kube;

import dev.windlass.policy.model.ObjectRef;
import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;

/**
 * The API version to address an object in when only its group is known, as for a delete, whose action names
 * the object but carries no manifest. Built-in groups come from a table (no request, and stable across
 * supported Kubernetes versions); any other group from API discovery, which the cluster answers.
 */
public final class ApiVersions {

    private static final Map<String, String> BUILT_IN = Map.ofEntries(
            Map.entry("", "v1"),
            Map.entry("apps", "apps/v1"),
            Map.entry("batch", "batch/v1"),
            Map.entry("autoscaling", "autoscaling/v2"),
            Map.entry("policy", "policy/v1"),
            Map.entry("networking.k8s.io", "networking.k8s.io/v1"),
            Map.entry("rbac.authorization.k8s.io", "rbac.authorization.k8s.io/v1"),
            Map.entry("storage.k8s.io", "storage.k8s.io/v1"),
            Map.entry("apiextensions.k8s.io", "apiextensions.k8s.io/v1"),
            Map.entry("admissionregistration.k8s.io", "admissionregistration.k8s.io/v1"),
            Map.entry("scheduling.k8s.io", "scheduling.k8s.io/v1"),
            Map.entry("coordination.k8s.io", "coordination.k8s.io/v1"),
            Map.entry("discovery.k8s.io", "discovery.k8s.io/v1"),
            Map.entry("node.k8s.io", "node.k8s.io/v1"),
            Map.entry("certificates.k8s.io", "certificates.k8s.io/v1"),
            Map.entry("events.k8s.io", "events.k8s.io/v1"),
            Map.entry("apiregistration.k8s.io", "apiregistration.k8s.io/v1"));

    private ApiVersions() {}

    /** The version to use for {@code ref}; a group the cluster does not serve fails as {@link Failures.Kind#Unresolved}. */
    public static String of(KubernetesClient client, ObjectRef ref) {
        String builtIn = BUILT_IN.get(ref.group());
        if (builtIn != null) return builtIn;
        APIGroup group = client.getApiGroup(ref.group());
        if (group == null || group.getPreferredVersion() == null || group.getPreferredVersion().getGroupVersion() == null) {
            throw new KubernetesClientException("the cluster serves no API group " + ref.group() + " for " + ref.kind());
        }
        return group.getPreferredVersion().getGroupVersion();
    }
}
