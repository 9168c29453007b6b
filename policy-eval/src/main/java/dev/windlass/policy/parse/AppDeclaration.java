package dev.windlass.policy.parse;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.RenderSpec;
import dev.windlass.policy.model.SourceLocation;
import java.util.List;
import java.util.Map;

/** An {@code Application} document as written, before its manifests are read. */
record AppDeclaration(String name, Map<String, String> labels, String sourcePath, SourceLocation sourcePathAt,
                      String namespace, Application.Placement placement, SourceLocation clusterNamesAt, Application.SyncPolicy syncPolicy,
                      List<String> dependsOn, SourceLocation dependsOnAt, boolean suspend, Object spec,
                      SourceLocation location, Map<String, String> annotations, Rendering rendering, Application.Decryption decryption) {

    /** A declaration without {@code spec.decryption} (a Flux Kustomization's: its decryption is refused where it is read). */
    AppDeclaration(String name, Map<String, String> labels, String sourcePath, SourceLocation sourcePathAt, String namespace,
                   Application.Placement placement, SourceLocation clusterNamesAt, Application.SyncPolicy syncPolicy, List<String> dependsOn,
                   SourceLocation dependsOnAt, boolean suspend, Object spec, SourceLocation location, Map<String, String> annotations,
                   Rendering rendering) {
        this(name, labels, sourcePath, sourcePathAt, namespace, placement, clusterNamesAt, syncPolicy, dependsOn, dependsOnAt, suspend, spec,
                location, annotations, rendering, null);
    }

    /**
     * What the declaration says of rendering: a Helm chart (null when none), per-cluster variants, whether rendering
     * nothing is fine, and where spec.source is; for an application read from a Flux Kustomization, what Flux's build
     * adds (else null); for an application read from an Argo CD Application, what its source says beyond its path (else
     * null).
     */
    record Rendering(RenderSpec.Helm helm, List<RenderSpec.VariantSpec> variants, boolean allowEmpty, SourceLocation at, FluxRead flux,
                     ArgoRead argo) {
        Rendering(RenderSpec.Helm helm, List<RenderSpec.VariantSpec> variants, boolean allowEmpty, SourceLocation at) {
            this(helm, variants, allowEmpty, at, null, null);
        }

        Rendering(RenderSpec.Helm helm, List<RenderSpec.VariantSpec> variants, boolean allowEmpty, SourceLocation at, FluxRead flux) {
            this(helm, variants, allowEmpty, at, flux, null);
        }
    }
}
