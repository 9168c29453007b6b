package dev.windlass.policy.model;

import java.util.List;

/**
 * Which Windlass clusters the Flux objects of a folder are for ({@code Settings.spec.flux.clusters}): a bootstrapped Flux
 * repo keeps one folder per cluster ({@code clusters/<name>/}), and each entry maps such folders to clusters. The first
 * entry whose folder holds a Flux object decides for it.
 */
public record FluxSettings(List<ClusterFolder> clusters) {
    public static final FluxSettings NONE = new FluxSettings(List.of());

    public FluxSettings {
        clusters = List.copyOf(clusters);
    }

    /**
     * One folder pattern and the clusters its Flux objects go to.
     *
     * @param path            a folder of the repo, whose one segment may be {@value #CLUSTER}: that segment is then the
     *                        name of the cluster (and {@code clusters/{cluster}} maps every cluster folder at once)
     * @param clusterNames    more clusters by name (with a fixed path, the clusters the folder is for)
     * @param clusterSelector clusters by label, or null
     * @param at              where the entry is written, for errors about it
     */
    public record ClusterFolder(String path, List<String> clusterNames, LabelSelector clusterSelector, SourceLocation at) {
        public static final String CLUSTER = "{cluster}";

        public ClusterFolder {
            clusterNames = List.copyOf(clusterNames);
        }
    }
}
