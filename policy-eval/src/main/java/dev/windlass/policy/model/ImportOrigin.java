package dev.windlass.policy.model;

/**
 * The Flux or Argo CD object an imported application is read from: what {@code windlass plan} lists under "Imported
 * from Flux" or "Imported from Argo CD", kept as a record so that the status branch, {@code windlass status} and the
 * dashboard show the same.
 *
 * @param tool whose object it is
 * @param kind the object's kind: {@code Kustomization} or {@code HelmRelease} (Flux), {@code Application} or
 *             {@code ApplicationSet} (Argo CD)
 * @param name the object's {@code metadata.name} (for an ApplicationSet, the set's)
 * @param at   the file and line the plan names: the Kustomization's, for a HelmRelease (its build prints the release);
 *             the Application's, or the ApplicationSet's template
 */
public record ImportOrigin(Tool tool, String kind, String name, SourceLocation at) {
    /** The GitOps tool whose objects Windlass reads as they are. */
    public enum Tool { Flux, ArgoCD }

    /** "Flux Kustomization apps (clusters/staging/apps.yaml:2:1)", for people. */
    public String describe() {
        String where = kind.equals("HelmRelease") ? "printed by the Kustomization at " + at : at.toString();
        return (tool == Tool.Flux ? "Flux " : "Argo CD ") + kind + " " + name + " (" + where + ")";
    }

    /** Where {@code app} is imported from, or null for a native application. */
    public static ImportOrigin of(Application app) {
        if (app.render() != null && app.render().flux() != null && app.render().flux().from() == FluxBuild.From.FLUX) {
            String kind = "HelmRelease".equals(app.labels().get("flux.windlass.dev/kind")) ? "HelmRelease" : "Kustomization";
            return new ImportOrigin(Tool.Flux, kind, app.labels().getOrDefault("flux.windlass.dev/name", app.name()), app.render().flux().origin());
        }
        String argo = app.labels().get("argocd.windlass.dev/name");
        if (argo == null) return null;
        String set = app.labels().get("argocd.windlass.dev/applicationset");
        return set == null ? new ImportOrigin(Tool.ArgoCD, "Application", argo, app.location())
                : new ImportOrigin(Tool.ArgoCD, "ApplicationSet", set, app.location());
    }
}
