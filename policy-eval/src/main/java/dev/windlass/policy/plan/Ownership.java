package dev.windlass.policy.plan;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Who declares which object on which cluster, where the applications are placed in this pass. Two valid
 * applications never declare one object on one cluster: the parser makes both invalid when they may run on
 * one cluster at all ({@code parse/SharedObjects}). (The namespace Windlass creates for an app is shared
 * freely: it is never tracked.)
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
