package dev.windlass.policy.model;

import java.util.List;

/**
 * How an application's objects are made when they are rendered rather than read as they are: by Kustomize from a
 * folder holding a kustomization ({@code spec.source.path}), or by Helm from a chart ({@code spec.source.helm}); and, per
 * cluster, the variant it renders ({@code spec.variants}: the first whose selector matches the cluster, else the source
 * as written).
 *
 * @param kustomize the folder to build, when the source is a Kustomize folder; else null
 * @param helm      the chart and its values, when the source is a Helm chart; else null
 * @param at        where the source is declared (spec.source), for errors of the render as a whole
 * @param flux      for an application read from a Flux Kustomization, what Flux adds to the Kustomize build; else null
 */
public record RenderSpec(String kustomize, Helm helm, List<VariantSpec> variants, boolean allowEmpty, SourceLocation at, FluxBuild flux) {

    /** The name of what a cluster that no variant selects gets. */
    public static final String DEFAULT_VARIANT = "default";

    public RenderSpec {
        variants = List.copyOf(variants);
    }

    public RenderSpec(String kustomize, Helm helm, List<VariantSpec> variants, boolean allowEmpty, SourceLocation at) {
        this(kustomize, helm, variants, allowEmpty, at, null);
    }

    /** The variant a cluster gets: the first whose selector matches it; null when none does. */
    public VariantSpec variantFor(Cluster cluster) {
        for (VariantSpec v : variants) {
            if (v.clusterSelector().matches(cluster.labels())) return v;
        }
        return null;
    }

    /**
     * A Helm chart: from a folder of the repo ({@code chartPath}), or by name and version from a chart repository
     * ({@code repoURL} over HTTP(S), or an {@code oci://} reference).
     *
     * @param values      the inline values as YAML text ("" when none)
     * @param valuesFiles repo paths of values files, applied after the inline values, in order
     */
    public record Helm(String chartPath, String repoURL, String chart, String version, String releaseName, String values,
                       List<String> valuesFiles, boolean skipCrds, SourceLocation at) {
        public Helm {
            valuesFiles = List.copyOf(valuesFiles);
        }
    }

    /**
     * What clusters selected by {@code clusterSelector} render instead: another Kustomize folder (an overlay), more Helm
     * values, and overrides applied to what was rendered.
     *
     * @param path        the Kustomize folder these clusters build instead of the source's, or null
     * @param values      Helm values (YAML text, "" when none) applied over the source's
     * @param valuesFiles repo paths of Helm values files applied after those
     */
    public record VariantSpec(String name, LabelSelector clusterSelector, String path, String values, List<String> valuesFiles,
                              Overrides overrides, SourceLocation at) {
        public VariantSpec {
            valuesFiles = List.copyOf(valuesFiles);
        }
    }

    /**
     * Changes made to the rendered objects of a variant's clusters: container images by name, replica counts, and JSON
     * patches (RFC 6902), each on the objects its target names.
     */
    public record Overrides(List<Image> images, List<Replicas> replicas, List<JsonPatch> jsonPatches) {
        public static final Overrides NONE = new Overrides(List.of(), List.of(), List.of());

        public Overrides {
            images = List.copyOf(images);
            replicas = List.copyOf(replicas);
            jsonPatches = List.copyOf(jsonPatches);
        }

        public boolean isEmpty() { return images.isEmpty() && replicas.isEmpty() && jsonPatches.isEmpty(); }

        /** Every container whose image is {@code name} (any tag or digest) gets {@code newName}, {@code newTag} or both. */
        public record Image(String name, String newName, String newTag) {}

        /** {@code spec.replicas} of the objects of {@code kind} named {@code name}. */
        public record Replicas(String kind, String name, int count) {}

        /** @param patch the operations, as JSON text */
        public record JsonPatch(String kind, String name, String patch) {}
    }
}
