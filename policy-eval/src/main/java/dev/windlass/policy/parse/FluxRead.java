package dev.windlass.policy.parse;

import dev.windlass.policy.model.FluxHealth;
import dev.windlass.policy.model.SourceLocation;
import java.util.List;
import java.util.Map;

/**
 * What a Flux {@code Kustomization} says of its build, as read: the fields Flux writes into the kustomization of its
 * path, and the variables its postBuild substitutes. Kept as plain maps and lists in the order written, for the
 * kustomization file they become ({@link FluxKustomizationFile}).
 *
 * @param folder          the cluster folder the object is in ({@code clusters/staging}): where substituteFrom looks first
 * @param namespace       the Kustomization's own namespace, where Flux looks for substituteFrom's objects
 * @param targetNamespace null when not given; likewise namePrefix and nameSuffix
 * @param patches         each {@code {patch, target}}
 * @param images          each {@code {name, newName, newTag, digest}}
 * @param components      paths relative to the Kustomization's path
 * @param health          what its dependents wait for beyond its own objects: {@code wait} and {@code healthChecks}
 */
record FluxRead(String folder, String namespace, String targetNamespace, String namePrefix, String nameSuffix,
                List<Map<String, Object>> patches, List<Map<String, Object>> images, List<String> components,
                Map<String, String> substitute, List<SubstituteFrom> substituteFrom, SourceLocation origin, FluxHealth health) {

    FluxRead(String folder, String namespace, String targetNamespace, String namePrefix, String nameSuffix,
             List<Map<String, Object>> patches, List<Map<String, Object>> images, List<String> components,
             Map<String, String> substitute, List<SubstituteFrom> substituteFrom, SourceLocation origin) {
        this(folder, namespace, targetNamespace, namePrefix, nameSuffix, patches, images, components, substitute, substituteFrom, origin,
                FluxHealth.NONE);
    }

    FluxRead {
        health = health == null ? FluxHealth.NONE : health;
        patches = List.copyOf(patches);
        images = List.copyOf(images);
        components = List.copyOf(components);
        substitute = Map.copyOf(substitute);
        substituteFrom = List.copyOf(substituteFrom);
    }

    /** One {@code postBuild.substituteFrom} entry: a ConfigMap or Secret of the repo, by name. */
    record SubstituteFrom(Kind kind, String name, boolean optional, SourceLocation at) {
        enum Kind { ConfigMap, Secret }
    }
}
