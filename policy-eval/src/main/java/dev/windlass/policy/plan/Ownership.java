package dev.windlass.policy.plan;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Who declares which object on which cluster. An object has one owner: two applications declaring the
 * same object on the same cluster is an error in both, never a silent tug of war. (The namespace
 * Windlass creates for an app is shared freely: it is never tracked.)
 */
final class Ownership {
    /** cluster → object → the applications declaring it there. */
    private final Map<String, Map<ObjectRef, Set<String>>> claims = new HashMap<>();

    Ownership(Map<String, Application> apps, Map<String, List<String>> placements) {
        placements.forEach((app, clusters) -> {
            for (String cluster : clusters) {
                for (Manifest m : apps.get(app).on(cluster).manifests()) {
                    if (m.implicit()) continue;
                    claims.computeIfAbsent(cluster, c -> new HashMap<>()).computeIfAbsent(m.ref(), r -> new TreeSet<>()).add(app);
                }
            }
        });
    }

    /** Errors per application, at the manifest that clashes, naming the other owners and the clusters. */
    Map<String, List<Diagnostic>> conflicts(Map<String, Application> apps) {
        Map<String, Map<ObjectRef, Set<String>>> where = new TreeMap<>();
        claims.forEach((cluster, byRef) -> byRef.forEach((ref, owners) -> {
            if (owners.size() > 1) {
                for (String app : owners) where.computeIfAbsent(app, a -> new TreeMap<>()).computeIfAbsent(ref, r -> new TreeSet<>()).add(cluster);
            }
        }));
        Map<String, List<Diagnostic>> out = new TreeMap<>();
        where.forEach((app, refs) -> refs.forEach((ref, clusters) -> {
            Manifest m = apps.get(app).allManifests().stream().filter(x -> x.ref().equals(ref)).findFirst().orElseThrow();
            Set<String> owners = new TreeSet<>();
            clusters.forEach(c -> owners.addAll(claims.get(c).get(ref)));
            owners.remove(app);
            out.computeIfAbsent(app, a -> new ArrayList<>()).add(Diagnostic.error(m.location(), ref + " is also declared by application "
                    + String.join(", ", owners) + " on " + String.join(", ", clusters) + "; an object has one owner: remove it from one of them"));
        }));
        return out;
    }

    /**
     * Whether an object is declared on {@code cluster} by an application other than {@code app}. A lookup per
     * object, not a set built per app and cluster: this runs for every target on every pass.
     */
    Predicate<ObjectRef> claimedByOthers(String app, String cluster) {
        Map<ObjectRef, Set<String>> byRef = claims.getOrDefault(cluster, Map.of());
        return ref -> {
            Set<String> owners = byRef.get(ref);
            return owners != null && (owners.size() > 1 || !owners.contains(app));
        };
    }
}
