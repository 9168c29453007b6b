package dev.windlass.policy.parse;

import java.util.Set;

/**
 * Which kinds are cluster-scoped. Without asking a cluster, this is the built-in list plus every
 * CustomResourceDefinition in the repo that says {@code scope: Cluster}.
 */
record Scope(Set<String> clusterScoped) {

    static final Set<String> BUILT_IN = Set.of(
            "/Namespace", "/Node", "/PersistentVolume", "/ComponentStatus",
            "rbac.authorization.k8s.io/ClusterRole", "rbac.authorization.k8s.io/ClusterRoleBinding",
            "apiextensions.k8s.io/CustomResourceDefinition", "storage.k8s.io/StorageClass",
            "storage.k8s.io/CSIDriver", "storage.k8s.io/CSINode", "storage.k8s.io/VolumeAttachment",
            "scheduling.k8s.io/PriorityClass", "node.k8s.io/RuntimeClass", "networking.k8s.io/IngressClass",
            "apiregistration.k8s.io/APIService", "admissionregistration.k8s.io/MutatingWebhookConfiguration",
            "admissionregistration.k8s.io/ValidatingWebhookConfiguration",
            "admissionregistration.k8s.io/ValidatingAdmissionPolicy",
            "admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding",
            "certificates.k8s.io/CertificateSigningRequest", "flowcontrol.apiserver.k8s.io/FlowSchema",
            "flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration");

    boolean isClusterScoped(String group, String kind) {
        return clusterScoped.contains(group + "/" + kind);
    }
}
