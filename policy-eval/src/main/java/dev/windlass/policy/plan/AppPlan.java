package dev.windlass.policy.plan;

import dev.windlass.policy.model.Diagnostic;
import java.util.List;

/**
 * What the plan says about one application.
 *
 * @param clusters    where it is placed after this plan
 * @param removedFrom clusters it leaves (its objects there are pruned by its gc policies)
 * @param diagnostics its errors and warnings; with an error it gets no actions and is {@code Invalid}
 * @param definedIn   the file declaring it, remembered so a broken file never reads as a deletion
 * @param suspendedOn clusters where the application is suspended now, and what suspends it there
 * @param fluxOrigin  for an application read from a Flux Kustomization, that object's file and line; else null
 * @param argoOrigin  for an application read from an Argo CD Application (or made by an ApplicationSet), that object's
 *                    file and line; else null
 * @param origin      for an imported application, the Flux or Argo CD object it is read from (kind, name, file and line);
 *                    else null
 */
public record AppPlan(String app, String revision, boolean valid, List<String> clusters, List<String> removedFrom,
                      List<TargetPlan> targets, List<Diagnostic> diagnostics, String definedIn, java.util.Map<String, dev.windlass.policy.suspension.Hold> suspendedOn,
                      dev.windlass.policy.model.SourceLocation fluxOrigin, dev.windlass.policy.model.SourceLocation argoOrigin,
                      dev.windlass.policy.model.ImportOrigin origin) {
    public AppPlan(String app, String revision, boolean valid, List<String> clusters, List<String> removedFrom, List<TargetPlan> targets,
                   List<Diagnostic> diagnostics, String definedIn, java.util.Map<String, dev.windlass.policy.suspension.Hold> suspendedOn,
                   dev.windlass.policy.model.SourceLocation fluxOrigin, dev.windlass.policy.model.SourceLocation argoOrigin) {
        this(app, revision, valid, clusters, removedFrom, targets, diagnostics, definedIn, suspendedOn, fluxOrigin, argoOrigin, null);
    }

    public AppPlan(String app, String revision, boolean valid, List<String> clusters, List<String> removedFrom, List<TargetPlan> targets,
                   List<Diagnostic> diagnostics, String definedIn, java.util.Map<String, dev.windlass.policy.suspension.Hold> suspendedOn,
                   dev.windlass.policy.model.SourceLocation fluxOrigin) {
        this(app, revision, valid, clusters, removedFrom, targets, diagnostics, definedIn, suspendedOn, fluxOrigin, null);
    }

    public AppPlan(String app, String revision, boolean valid, List<String> clusters, List<String> removedFrom, List<TargetPlan> targets,
                   List<Diagnostic> diagnostics, String definedIn, java.util.Map<String, dev.windlass.policy.suspension.Hold> suspendedOn) {
        this(app, revision, valid, clusters, removedFrom, targets, diagnostics, definedIn, suspendedOn, null, null);
    }

    /** Where {@code app} is read from when it is imported from a Flux object; else null. */
    public static dev.windlass.policy.model.SourceLocation fluxOrigin(dev.windlass.policy.model.Application app) {
        return app.render() != null && app.render().flux() != null && app.render().flux().from() == dev.windlass.policy.model.FluxBuild.From.FLUX
                ? app.render().flux().origin() : null;
    }

    /**
     * Where {@code app} is read from when it is imported from an Argo CD Application: the applications Windlass makes of
     * them carry the label {@code argocd.windlass.dev/name}; else null.
     */
    public static dev.windlass.policy.model.SourceLocation argoOrigin(dev.windlass.policy.model.Application app) {
        return app.labels().containsKey("argocd.windlass.dev/name") ? app.location() : null;
    }

    public AppPlan {
        suspendedOn = suspendedOn == null ? java.util.Map.of() : java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(suspendedOn));
        clusters = List.copyOf(clusters);
        removedFrom = List.copyOf(removedFrom);
        targets = List.copyOf(targets);
        diagnostics = List.copyOf(diagnostics);
    }
}
