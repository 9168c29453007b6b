package dev.windlass.policy.parse;

import dev.windlass.policy.model.Manifest;
import java.util.Map;

/**
 * Argo CD resource hooks ({@code argocd.argoproj.io/hook}) on the objects of an application read from an Argo CD
 * Application: Argo CD runs them around a sync (or, for {@code Skip}, never applies them), which Windlass does not do
 * yet, so each one is an error at the object rather than an object applied as if it were an ordinary one.
 */
public final class ArgoHooks {
    public static final String HOOK = "argocd.argoproj.io/hook";

    private ArgoHooks() {}

    /** What is wrong with {@code m} in an Argo CD Application's objects, or null. */
    public static String problem(Manifest m) {
        if (!(m.body().get("metadata") instanceof Map<?, ?> meta) || !(meta.get("annotations") instanceof Map<?, ?> annotations)) return null;
        Object hook = annotations.get(HOOK);
        if (hook == null) return null;
        return m.ref().kind() + " " + m.ref().name() + " is an Argo CD " + hook + " hook (annotation " + HOOK + "), which Windlass does not run"
                + " yet: remove the annotation to apply it with the other objects, or keep this Application on Argo CD for now";
    }
}
