package dev.windlass.render;

import java.util.List;

/** What to render: a Kustomize folder of the repo, or a Helm chart with its values. */
public sealed interface RenderRequest {

    /** The Kubernetes version charts are rendered for when the cluster's own is not known. */
    String DEFAULT_KUBE_VERSION = "v1.34.0";

    /** {@code kustomize build <folder>}; remote bases only when the repo's Settings allow them. */
    record Kustomize(String folder, boolean allowRemoteBases) implements RenderRequest {}

    /**
     * {@code helm template}. {@code values} are YAML documents in order (inline values and values files, already read and
     * filled in with the cluster's name and labels), later ones winning as with {@code -f a -f b}.
     *
     * @param kubeVersion the target cluster's Kubernetes version, for {@code .Capabilities.KubeVersion}
     * @param apiVersions the API versions it serves, for {@code .Capabilities.APIVersions}
     */
    record Helm(Chart chart, String releaseName, String namespace, List<String> values, boolean skipCrds, String kubeVersion,
                List<String> apiVersions) implements RenderRequest {
        public Helm {
            values = List.copyOf(values);
            apiVersions = List.copyOf(apiVersions);
        }
    }

    /** Where a chart comes from. */
    sealed interface Chart {
        /** A folder of the repo holding Chart.yaml. */
        record InRepo(String path) implements Chart {}

        /** A chart repository over HTTP(S): its index.yaml names the chart's versions. */
        record Repository(String url, String name, String version) implements Chart {}

        /** An OCI registry: {@code oci://host/path/chart}. */
        record Oci(String reference, String version) implements Chart {}
    }
}
