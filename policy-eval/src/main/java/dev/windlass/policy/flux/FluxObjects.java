package dev.windlass.policy.flux;

import dev.windlass.policy.model.Manifest;

/**
 * Flux's own objects in what a build prints that Windlass does not read ({@code Kustomization}, {@code GitRepository},
 * {@code ArtifactGenerator}, ...; HelmReleases and their sources are read as applications of their own): on a cluster
 * without Flux, applied as they are, they would do nothing, so an application that holds one is held, with this said at
 * the object, until Windlass reads that kind itself.
 */
public final class FluxObjects {
    private FluxObjects() {}

    /** What is wrong with applying {@code m}, or null when it is no Flux object. */
    public static String problem(Manifest m) {
        String group = m.ref().group();
        if (!group.endsWith(".toolkit.fluxcd.io") && !group.endsWith(".extensions.fluxcd.io")) return null;
        String what = m.ref().kind() + " " + (m.ref().namespace().isEmpty() ? "" : m.ref().namespace() + "/") + m.ref().name();
        String instead = m.ref().kind().equals("Kustomization")
                ? "put its folder under Settings.spec.flux.clusters so that Windlass reads it, or keep this Kustomization on Flux for now"
                : "keep this Kustomization on Flux for now";
        return what + " is a Flux object (" + group + "), which Windlass does not read here yet; applied as it is, it would"
                + " do nothing on a cluster without Flux: " + instead;
    }
}
