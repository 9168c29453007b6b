package dev.windlass.policy.parse;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.placement.Placement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * An object has one owner: two valid applications that declare the same object and may both run on one cluster
 * (each one's selector and names pick it, before maxClusters) are an error in both, at each one's manifest, never
 * a silent tug of war. Checked on the repo alone, so {@code validate} and {@code plan} say the same, and a failover
 * (which moves an application only among those clusters) never turns two valid applications invalid. (The namespace
 * Windlass creates for an app is shared freely: it is never tracked.)
 *
 * <p>The parser checks what it reads; whoever renders applications (Kustomize, Helm) checks again once their objects
 * are known. Applications already invalid take no part, so nothing is said twice.
 */
public final class SharedObjects {
    private SharedObjects() {}

    /** {@code desired} with both owners of every object two valid applications may declare on one cluster invalid. */
    public static DesiredState check(DesiredState desired) {
        Checked checked = check(desired.apps(), desired.clusters());
        if (checked.diagnostics().isEmpty()) return desired;
        List<Diagnostic> all = new ArrayList<>(desired.diagnostics());
        all.addAll(checked.diagnostics());
        all.sort(null);
        return new DesiredState(desired.commit(), desired.settings(), desired.clusters(), checked.apps(), desired.brokenFiles(), all,
                desired.rolloutPolicies(), desired.rolloutOf(), desired.freezes(), desired.author(), desired.failoverPolicies(),
                desired.failoverOf(), desired.remediationPolicies());
    }

    private record Checked(SortedMap<String, Application> apps, List<Diagnostic> diagnostics) {}

    private static Checked check(SortedMap<String, Application> apps, Map<String, Cluster> clusters) {
        /* cluster → object → the applications declaring it there */
        Map<String, Map<ObjectRef, Set<String>>> claims = new HashMap<>();
        for (Application app : apps.values()) {
            if (!app.valid()) continue;
            for (String cluster : Placement.eligible(app, clusters)) {
                for (Manifest m : app.on(cluster).manifests()) {
                    if (m.implicit()) continue;
                    claims.computeIfAbsent(cluster, c -> new HashMap<>()).computeIfAbsent(m.ref(), r -> new TreeSet<>()).add(app.name());
                }
            }
        }
        /* app → object → the clusters where another app declares it too */
        Map<String, Map<ObjectRef, Set<String>>> where = new TreeMap<>();
        claims.forEach((cluster, byRef) -> byRef.forEach((ref, owners) -> {
            if (owners.size() > 1) {
                for (String app : owners) where.computeIfAbsent(app, a -> new TreeMap<>()).computeIfAbsent(ref, r -> new TreeSet<>()).add(cluster);
            }
        }));
        SortedMap<String, Application> result = new TreeMap<>(apps);
        List<Diagnostic> out = new ArrayList<>();
        where.forEach((app, refs) -> {
            List<Diagnostic> more = new ArrayList<>();
            refs.forEach((ref, on) -> {
                Manifest m = apps.get(app).allManifests().stream().filter(x -> x.ref().equals(ref)).findFirst().orElseThrow();
                Set<String> owners = new TreeSet<>();
                on.forEach(c -> owners.addAll(claims.get(c).get(ref)));
                owners.remove(app);
                more.add(Diagnostic.error(m.location(), ref + " is also declared by application " + String.join(", ", owners) + " on "
                        + String.join(", ", on) + "; an object has one owner: remove it from one of them"));
            });
            out.addAll(more);
            result.put(app, AppAssembly.withMore(apps.get(app), more));
        });
        return new Checked(result, out);
    }
}
