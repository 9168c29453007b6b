package dev.windlass.policy.parse;

import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Hook;
import dev.windlass.policy.model.Hook.DeletePolicy;
import dev.windlass.policy.model.Hook.Occasion;
import dev.windlass.policy.model.Hook.Phase;
import dev.windlass.policy.model.SourceLocation;
import dev.windlass.policy.text.Excerpt;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a resource hook from an object's annotations: Argo CD's ({@code argocd.argoproj.io/hook}, its delete policy,
 * ordered by its sync wave) or Helm's ({@code helm.sh/hook}, its weight and delete policy), whatever format the
 * application is written in. Helm's words map to phases and occasions: {@code pre-install} runs before the objects of
 * an application's first sync on a cluster, {@code pre-upgrade} before a later one's, and so on. Helm's delete and
 * rollback hooks and its {@code test} hooks are never run: Windlass removes an application's objects by pruning and
 * rolls back by applying an older revision (a sync, which runs install or upgrade hooks).
 */
final class HookAnnotations {
    private HookAnnotations() {}

    /** A sentinel for "the annotations are wrong; an error was said". */
    static final Hook INVALID = new Hook(Set.of(), Set.of(), 0, Set.of(), false, Hook.Source.ArgoCD);

    /**
     * The hook {@code annotations} declare, null when none, or {@link #INVALID} after adding an error to {@code out}.
     *
     * @param wave      the object's sync wave (Argo CD's hooks are ordered by it)
     * @param generated whether the object has a generateName and no name
     */
    static Hook read(Map<?, ?> annotations, String kind, String name, int wave, boolean generated, SourceLocation at, List<Diagnostic> out) {
        Object argo = annotations.get(Hook.ARGOCD_HOOK);
        Object helm = annotations.get(Hook.HELM_HOOK);
        if (argo != null) return argo(String.valueOf(argo), annotations, kind, name, wave, generated, at, out);
        if (helm != null) return helm(String.valueOf(helm), annotations, kind, name, generated, at, out);
        return null;
    }

    private static Hook argo(String words, Map<?, ?> annotations, String kind, String name, int wave, boolean generated, SourceLocation at, List<Diagnostic> out) {
        Set<Phase> phases = EnumSet.noneOf(Phase.class);
        for (String w : words(words)) {
            Phase p = switch (w) {
                case "PreSync" -> Phase.PreSync;
                case "Sync" -> Phase.Sync;
                case "PostSync" -> Phase.PostSync;
                case "SyncFail" -> Phase.SyncFail;
                case "Skip" -> Phase.Skip;
                default -> null;
            };
            if (p == null) {
                out.add(Diagnostic.error(at, "annotation " + Hook.ARGOCD_HOOK + " on " + kind + " " + name + " names " + Excerpt.quoted(w)
                        + "; it must be PreSync, Sync, PostSync, SyncFail or Skip (several separated by commas). PreDelete and PostDelete hooks are not run by Windlass"));
                return INVALID;
            }
            phases.add(p);
        }
        Set<DeletePolicy> policies = policies(annotations.get(Hook.ARGOCD_DELETE_POLICY), Hook.ARGOCD_DELETE_POLICY,
                Map.of("BeforeHookCreation", DeletePolicy.BeforeHookCreation, "HookSucceeded", DeletePolicy.HookSucceeded, "HookFailed", DeletePolicy.HookFailed),
                kind, name, at, out);
        if (policies == null || phases.isEmpty()) {
            if (phases.isEmpty()) out.add(Diagnostic.error(at, "annotation " + Hook.ARGOCD_HOOK + " on " + kind + " " + name + " is empty; it must be PreSync, Sync, PostSync, SyncFail or Skip"));
            return INVALID;
        }
        return new Hook(phases, EnumSet.allOf(Occasion.class), wave, policies, generated, Hook.Source.ArgoCD);
    }

    private static Hook helm(String words, Map<?, ?> annotations, String kind, String name, boolean generated, SourceLocation at, List<Diagnostic> out) {
        Set<Phase> phases = EnumSet.noneOf(Phase.class);
        Set<Occasion> occasions = EnumSet.noneOf(Occasion.class);
        Set<String> pairs = new java.util.TreeSet<>();
        for (String w : words(words)) {
            switch (w) {
                case "pre-install", "pre-upgrade", "post-install", "post-upgrade" -> {
                    phases.add(w.startsWith("pre-") ? Phase.PreSync : Phase.PostSync);
                    occasions.add(w.endsWith("-install") ? Occasion.Install : Occasion.Upgrade);
                    pairs.add(w);
                }
                case "pre-delete", "post-delete", "pre-rollback", "post-rollback", "test", "test-success" -> { }
                default -> {
                    out.add(Diagnostic.error(at, "annotation " + Hook.HELM_HOOK + " on " + kind + " " + name + " names " + Excerpt.quoted(w)
                            + "; Helm's hooks are pre-install, post-install, pre-upgrade, post-upgrade, pre-delete, post-delete, pre-rollback,"
                            + " post-rollback and test"));
                    return INVALID;
                }
            }
        }
        if (pairs.isEmpty()) {
            // Only delete, rollback or test hooks: Windlass never runs them, and they are not ordinary objects either.
            out.add(Diagnostic.warning(at, kind + " " + name + " is a Helm " + words.trim() + " hook, which Windlass does not run (it removes"
                    + " an application by pruning and rolls back by syncing an older revision); it is left out"));
            return new Hook(Set.of(Phase.Skip), EnumSet.allOf(Occasion.class), 0, Set.of(DeletePolicy.BeforeHookCreation), generated, Hook.Source.Helm);
        }
        for (Phase p : phases) {
            for (Occasion o : occasions) {
                String pair = (p == Phase.PreSync ? "pre-" : "post-") + (o == Occasion.Install ? "install" : "upgrade");
                if (!pairs.contains(pair)) {
                    out.add(Diagnostic.error(at, "annotation " + Hook.HELM_HOOK + " on " + kind + " " + name + " is " + Excerpt.quoted(words.trim())
                            + ", which Windlass cannot run as one hook (it runs each phase named on each occasion named, and " + pair
                            + " is not named); split it into two objects"));
                    return INVALID;
                }
            }
        }
        int weight = 0;
        Object w = annotations.get(Hook.HELM_WEIGHT);
        if (w != null) {
            try {
                weight = Integer.parseInt(String.valueOf(w).trim());
            } catch (NumberFormatException e) {
                out.add(Diagnostic.error(at, "annotation " + Hook.HELM_WEIGHT + " on " + kind + " " + name + " is " + Excerpt.quoted(w)
                        + "; it must be a whole number such as \"-5\" or \"10\""));
                return INVALID;
            }
        }
        Set<DeletePolicy> policies = policies(annotations.get(Hook.HELM_DELETE_POLICY), Hook.HELM_DELETE_POLICY,
                Map.of("before-hook-creation", DeletePolicy.BeforeHookCreation, "hook-succeeded", DeletePolicy.HookSucceeded, "hook-failed", DeletePolicy.HookFailed),
                kind, name, at, out);
        if (policies == null) return INVALID;
        return new Hook(phases, occasions, weight, policies, generated, Hook.Source.Helm);
    }

    private static Set<DeletePolicy> policies(Object value, String key, Map<String, DeletePolicy> named, String kind, String name, SourceLocation at, List<Diagnostic> out) {
        if (value == null || String.valueOf(value).isBlank()) return Set.of(DeletePolicy.BeforeHookCreation);
        Set<DeletePolicy> out2 = EnumSet.noneOf(DeletePolicy.class);
        for (String w : words(String.valueOf(value))) {
            DeletePolicy p = named.get(w);
            if (p == null) {
                out.add(Diagnostic.error(at, "annotation " + key + " on " + kind + " " + name + " names " + Excerpt.quoted(w) + "; it must be "
                        + String.join(", ", new java.util.TreeSet<>(named.keySet())) + " (several separated by commas)"));
                return null;
            }
            out2.add(p);
        }
        return out2;
    }

    private static List<String> words(String s) {
        return java.util.Arrays.stream(s.split(",")).map(String::trim).filter(w -> !w.isEmpty()).toList();
    }
}
