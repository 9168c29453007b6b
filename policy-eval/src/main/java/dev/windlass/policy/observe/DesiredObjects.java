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
    /** For clusters with rendered applications: everything wanted there, plain applications' objects included. */
    private final Map<String, Map<ObjectRef, Wanted>> byCluster;

    private DesiredObjects(Map<ObjectRef, Wanted> byRef) { this(byRef, Map.of()); }

    private DesiredObjects(Map<ObjectRef, Wanted> byRef, Map<String, Map<ObjectRef, Wanted>> byCluster) {
        this.byRef = byRef;
        this.byCluster = byCluster;
    }

    public static DesiredObjects of(DesiredState desired) {
        List<Wanted> all = new java.util.ArrayList<>();
        Map<String, List<Wanted>> rendered = new HashMap<>();
        for (Application app : desired.apps().values()) {
            if (!app.valid()) continue;
            if (app.render() == null) {
                for (Manifest m : app.manifests()) {
                    if (!m.implicit()) all.add(new Wanted(app.name(), m, app.syncPolicy().ignoreDifferences()));
                }
                continue;
            }
            // A rendered application may want an object differently on each cluster.
            app.variants().forEach((cluster, variant) -> {
                for (Manifest m : variant.manifests()) {
                    if (!m.implicit()) rendered.computeIfAbsent(cluster, c -> new java.util.ArrayList<>())
                            .add(new Wanted(app.name(), m, app.syncPolicy().ignoreDifferences()));
                }
            });
        }
        DesiredObjects plain = of(all);
        if (rendered.isEmpty()) return plain;
        Map<String, Map<ObjectRef, Wanted>> byCluster = new HashMap<>();
        rendered.forEach((cluster, wanted) -> {
            List<Wanted> here = new java.util.ArrayList<>(wanted);
            here.addAll(plain.byRef.values());
            byCluster.put(cluster, of(here).byRef);
        });
        return new DesiredObjects(plain.byRef, byCluster);
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
    public Wanted get(String cluster, ObjectRef ref) { return byCluster.getOrDefault(cluster, byRef).get(ref); }
}
