package dev.windlass.policy.model;

import java.util.Set;

/**
 * An object that is a resource hook: not applied with the application's other objects, but run at its place in a sync
 * (created, and for a Job or Pod awaited until it finishes), and never part of the application's inventory.
 *
 * @param phases         when in a sync it runs ({@link Phase#Skip}: never applied at all)
 * @param occasions      which syncs it runs in: the application's first on the cluster ({@link Occasion#Install}), or a
 *                       later one ({@link Occasion#Upgrade}); Argo CD's hooks run in both
 * @param weight         orders hooks within a phase, lowest first ({@code helm.sh/hook-weight}, or Argo CD's sync wave)
 * @param deletePolicies when the hook object is deleted; {@link DeletePolicy#BeforeHookCreation} when none is given
 * @param generated      the object has {@code metadata.generateName} and no name: the server names it, anew each run
 * @param source         which tool's annotation made it a hook
 */
public record Hook(Set<Phase> phases, Set<Occasion> occasions, int weight, Set<DeletePolicy> deletePolicies, boolean generated, Source source) {

    public static final String ARGOCD_HOOK = "argocd.argoproj.io/hook";
    public static final String ARGOCD_DELETE_POLICY = "argocd.argoproj.io/hook-delete-policy";
    public static final String HELM_HOOK = "helm.sh/hook";
    public static final String HELM_WEIGHT = "helm.sh/hook-weight";
    public static final String HELM_DELETE_POLICY = "helm.sh/hook-delete-policy";

    public Hook {
        phases = Set.copyOf(phases);
        occasions = Set.copyOf(occasions);
        deletePolicies = Set.copyOf(deletePolicies);
    }

    /** Where a hook runs in a sync, in this order: before the objects, with them, after them once healthy, after a failure. */
    public enum Phase { PreSync, Sync, PostSync, SyncFail, Skip }

    /** Which syncs a hook runs in: the application's first on a cluster (nothing of it there yet), or any later one. */
    public enum Occasion { Install, Upgrade }

    /** When a hook object is deleted by Windlass. */
    public enum DeletePolicy { BeforeHookCreation, HookSucceeded, HookFailed }

    public enum Source { ArgoCD, Helm }

    /** Whether the hook runs in {@code phase} of a sync that installs ({@code install}) or upgrades. */
    public boolean runs(Phase phase, boolean install) {
        return phases.contains(phase) && occasions.contains(install ? Occasion.Install : Occasion.Upgrade);
    }
}
