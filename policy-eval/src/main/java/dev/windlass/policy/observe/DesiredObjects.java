package dev.windlass.policy.observe;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.IgnoreDifferences;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What Git wants of each object Windlass manages, by identity: the application that declares it, its manifest and the
 * differences that application ignores. Observation asks an API server whether a live object is as Git says only
 * against this (see {@link ServerDiff}). Objects of invalid applications, implicit namespaces and objects declared by
 * two applications are not in it: nothing is applied for them, so there is nothing to confirm.
 */
public final class DesiredObjects {

    /** One object Git wants. */
    public record Wanted(String app, Manifest manifest, List<IgnoreDifferences> ignored) {
        public Wanted {
            ignored = List.copyOf(ignored);
        }
    }

    public static final DesiredObjects NONE = new DesiredObjects(Map.of());

    private final Map<ObjectRef, Wanted> byRef;

    private DesiredObjects(Map<ObjectRef, Wanted> byRef) { this.byRef = byRef; }

    public static DesiredObjects of(DesiredState desired) {
        List<Wanted> all = new java.util.ArrayList<>();
        for (Application app : desired.apps().values()) {
            if (!app.valid()) continue;
            for (Manifest m : app.manifests()) {
                if (!m.implicit()) all.add(new Wanted(app.name(), m, app.syncPolicy().ignoreDifferences()));
            }
        }
        return of(all);
    }

    /** These objects; one wanted twice (by two applications) is left out. */
    public static DesiredObjects of(List<Wanted> wanted) {
        Map<ObjectRef, Wanted> byRef = new HashMap<>();
        Set<ObjectRef> twice = new HashSet<>();
        for (Wanted w : wanted) {
            if (byRef.putIfAbsent(w.manifest().ref(), w) != null) twice.add(w.manifest().ref());
        }
        twice.forEach(byRef::remove);
        return new DesiredObjects(Map.copyOf(byRef));
    }

    /** What Git wants of {@code ref} on {@code cluster}, or null. */
    public Wanted get(String cluster, ObjectRef ref) { return byRef.get(ref); }
}
