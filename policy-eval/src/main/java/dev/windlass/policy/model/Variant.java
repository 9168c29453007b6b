package dev.windlass.policy.model;

import java.util.List;

/**
 * What one cluster gets of a rendered application.
 *
 * @param name      the variant that selected the cluster, or {@value RenderSpec#DEFAULT_VARIANT}
 * @param manifests the objects rendered for it
 * @param rendered  a short hash of those objects: equal on two clusters when they get the same objects
 */
public record Variant(String name, List<Manifest> manifests, String rendered) {
    public Variant {
        manifests = List.copyOf(manifests);
    }
}
