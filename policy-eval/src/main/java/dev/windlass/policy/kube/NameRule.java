package dev.windlass.policy.kube;

import java.util.List;
import java.util.Map;

/**
 * What a kind's {@code metadata.name} must look like on a real API server (v1.34, default feature gates). Most kinds,
 * custom resources included, take a DNS-1123 subdomain; the exceptions are listed here from the kinds' validation in
 * Kubernetes ({@code pkg/apis/<group>/validation}).
 */
public enum NameRule {

    /** At most 253 bytes of lowercase alphanumerics, '-' and '.': ConfigMap, Secret, Deployment, custom resources... */
    DNS1123_SUBDOMAIN,
    /** At most 63 bytes of lowercase alphanumerics and '-': Namespace, StatefulSet. */
    DNS1123_LABEL,
    /** A DNS-1123 label that starts with a letter: Service. */
    DNS1035_LABEL,
    /**
     * Anything that fits in a URL path segment: the RBAC kinds (names such as {@code system:aggregate-to-view} are
     * valid). Also used for the few kinds whose own rule is neither of the above (CertificateSigningRequest has none,
     * ClusterTrustBundle and IPAddress have rules of their own): the API server checks every name as a path segment,
     * so that much is certain, and their stricter rules are not modelled.
     */
    PATH_SEGMENT;

    private static final Map<String, NameRule> EXCEPTIONS = Map.ofEntries(
            Map.entry("/Namespace", DNS1123_LABEL),
            Map.entry("/Service", DNS1035_LABEL),
            Map.entry("apps/StatefulSet", DNS1123_LABEL),
            Map.entry("rbac.authorization.k8s.io/Role", PATH_SEGMENT),
            Map.entry("rbac.authorization.k8s.io/ClusterRole", PATH_SEGMENT),
            Map.entry("rbac.authorization.k8s.io/RoleBinding", PATH_SEGMENT),
            Map.entry("rbac.authorization.k8s.io/ClusterRoleBinding", PATH_SEGMENT),
            Map.entry("certificates.k8s.io/CertificateSigningRequest", PATH_SEGMENT),
            Map.entry("certificates.k8s.io/ClusterTrustBundle", PATH_SEGMENT),
            Map.entry("networking.k8s.io/IPAddress", PATH_SEGMENT));

    /** CronJob names are shorter: the Jobs it makes append 11 characters to a name that must stay a DNS-1123 label. */
    public static final int CRON_JOB_NAME_MAX = 52;

    /** Every problem a server finds with {@code name} for an object of this group and kind; empty when it is fine. */
    public static List<String> problems(String group, String kind, String name) {
        List<String> out = new java.util.ArrayList<>(of(group, kind).check(name, false));
        if (group.equals("batch") && kind.equals("CronJob") && NameFormats.utf8Length(name) > CRON_JOB_NAME_MAX) {
            out.add(NameFormats.maxLength(CRON_JOB_NAME_MAX));
        }
        return out;
    }

    public static NameRule of(String group, String kind) {
        return EXCEPTIONS.getOrDefault(group + "/" + kind, DNS1123_SUBDOMAIN);
    }

    /** The problems with a name, or with a generateName when {@code prefix} (a random suffix will follow it). */
    public List<String> check(String name, boolean prefix) {
        return switch (this) {
            case DNS1123_SUBDOMAIN -> NameFormats.dns1123Subdomain(prefix ? NameFormats.maskTrailingDash(name) : name);
            case DNS1123_LABEL -> NameFormats.dns1123Label(prefix ? NameFormats.maskTrailingDash(name) : name);
            case DNS1035_LABEL -> NameFormats.dns1035Label(prefix ? NameFormats.maskTrailingDash(name) : name);
            case PATH_SEGMENT -> prefix ? NameFormats.pathSegmentPrefix(name) : NameFormats.pathSegment(name);
        };
    }
}
