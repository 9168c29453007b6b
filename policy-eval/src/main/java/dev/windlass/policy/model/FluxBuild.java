package dev.windlass.policy.model;

import java.util.Map;

/**
 * What a Flux {@code Kustomization} adds to a Kustomize build, worked out when the repo is read: the kustomization file
 * Flux would write in its {@code path} (the one found there with {@code targetNamespace}, {@code namePrefix},
 * {@code nameSuffix}, {@code patches}, {@code images} and {@code components} written in, or one listing the folder's
 * manifests when it has none), and the variables of {@code postBuild}, substituted into what the build prints.
 *
 * @param files      repo paths and texts of the files the build reads instead of the repo's (the kustomization file)
 * @param substitute the variables of postBuild.substitute and substituteFrom, by name; empty when there are none, and
 *                   then nothing is substituted (as in Flux)
 * @param origin     the Flux object this application is read from: its file and line (for a HelmRelease's application,
 *                   the Kustomization whose build holds it)
 * @param crdsOnce   for a HelmRelease's chart, whether its CustomResourceDefinitions are created and never updated (Flux's
 *                   {@code install.crds: Create} with {@code upgrade.crds: Skip}, its default)
 * @param from       the tool whose object this is: an Argo CD {@code Application}'s build is made the same way (files written
 *                   over the repo's, said at its origin), but what it prints is never read for Flux objects
 * @param health     for a Kustomization's application, what its dependents wait for beyond its own objects ({@code wait},
 *                   {@code healthChecks}); {@link FluxHealth#NONE} otherwise
 * @param printedBy  for a HelmRelease's application, the application of the Kustomization whose build printed it; null otherwise
 */
public record FluxBuild(Map<String, String> files, Map<String, String> substitute, SourceLocation origin, boolean crdsOnce, From from,
                        FluxHealth health, String printedBy) {
    /** Which GitOps tool's object the build is read from. */
    public enum From { FLUX, ARGOCD }

    public FluxBuild(Map<String, String> files, Map<String, String> substitute, SourceLocation origin, boolean crdsOnce, From from) {
        this(files, substitute, origin, crdsOnce, from, FluxHealth.NONE, null);
    }

    public FluxBuild(Map<String, String> files, Map<String, String> substitute, SourceLocation origin, boolean crdsOnce) {
        this(files, substitute, origin, crdsOnce, From.FLUX);
    }

    public FluxBuild {
        from = from == null ? From.FLUX : from;
        health = health == null ? FluxHealth.NONE : health;
        files = Map.copyOf(new java.util.TreeMap<>(files));
        substitute = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(substitute));
    }

    public FluxBuild(Map<String, String> files, Map<String, String> substitute, SourceLocation origin) {
        this(files, substitute, origin, false);
    }
}
