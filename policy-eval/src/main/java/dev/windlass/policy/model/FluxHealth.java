package dev.windlass.policy.model;

import java.util.List;

/**
 * What a Flux {@code Kustomization} says its readiness is, beyond its own objects: with {@code wait: true}, every
 * application made from a HelmRelease its build printed; and each {@code healthChecks} entry, an application (a HelmRelease's
 * or a Kustomization's) or an object on the same cluster. An application that depends on the Kustomization waits for all of
 * it ({@code dev.windlass.policy.plan.Planner} reads it).
 *
 * @param waitForPrinted {@code spec.wait}: whether what the build printed counts, not only its own objects
 * @param checks         {@code spec.healthChecks}, in the order written
 */
public record FluxHealth(boolean waitForPrinted, List<Check> checks) {
    /** A Kustomization that says nothing beyond its own objects (Flux's {@code wait: false}, no healthChecks). */
    public static final FluxHealth NONE = new FluxHealth(false, List.of());

    public FluxHealth {
        checks = List.copyOf(checks);
    }

    /** The label that tells a HelmRelease's application from a Kustomization's (whose applications have none). */
    public static final String LABEL_KIND = "flux.windlass.dev/kind";

    /** What the application's dependents wait for beyond its own objects: NONE unless it is a Flux Kustomization's. */
    public static FluxHealth of(Application app) {
        return app.render() == null || app.render().flux() == null ? NONE : app.render().flux().health();
    }

    /** For a HelmRelease's application, the application of the Kustomization whose build printed it; else null. */
    public static String printedBy(Application app) {
        return app.render() == null || app.render().flux() == null ? null : app.render().flux().printedBy();
    }

    /** Whether the application is made from a Flux object of that kind ({@code HelmRelease} or {@code Kustomization}). */
    public static boolean madeFrom(Application app, String kind) {
        if (app.render() == null || app.render().flux() == null || app.render().flux().from() != FluxBuild.From.FLUX) return false;
        boolean release = "HelmRelease".equals(app.labels().get(LABEL_KIND));
        return kind.equals("HelmRelease") ? release : kind.equals("Kustomization") && !release;
    }

    /** Whether dependents wait for anything more than the Kustomization's own objects. */
    public boolean any() { return waitForPrinted || !checks.isEmpty(); }

    /** One {@code healthChecks} entry, with where it is written. */
    public sealed interface Check {
        SourceLocation at();
    }

    /**
     * An entry naming a Flux {@code HelmRelease} or {@code Kustomization}: the application made from it, by name.
     *
     * @param kind {@code HelmRelease} or {@code Kustomization}, to tell the two applications of one name apart
     */
    public record OfApp(String app, String kind, SourceLocation at) implements Check {}

    /**
     * An entry naming any other object: it must exist and be Healthy on the cluster. {@code ref}'s namespace is the entry's,
     * or the Kustomization's when the entry gives none; an object of a cluster-scoped kind is found by its name alone.
     */
    public record OfObject(ObjectRef ref, SourceLocation at) implements Check {}
}
