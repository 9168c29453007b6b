package dev.windlass.applier.kube;

import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * The cluster's discovery does not list the kind an object has (for a custom resource: its definition is not installed,
 * or not yet). Thrown where the client looks the kind up, so that no caller has to read the client's words for it.
 */
public final class UnservedKind extends KubernetesClientException {
    private final String apiVersion;
    private final String kind;

    UnservedKind(String apiVersion, String kind, KubernetesClientException cause) {
        super("the cluster does not serve " + kind + " in " + apiVersion, cause);
        this.apiVersion = apiVersion;
        this.kind = kind;
    }

    public String apiVersion() { return apiVersion; }

    public String kind() { return kind; }
}
