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
 * An object has one owner: when two valid applications declare the same object and may both run on one cluster (each
 * one's selector and names pick it, before maxClusters), the one that already holds it there keeps it ({@link Owners}:
 * its inventory on that cluster has it), else the one whose file came into the repo first; the other is an error at
 * its manifest, naming both declarations, and is held. So one team's mistake never stops another's healthy
 * application. Where neither is known (the repo alone, as {@code validate} reads a folder), both are held: never a
 * silent tug of war. Clusters are those a placement may pick, so a failover (which moves an application only among
 * them) never turns two valid applications invalid. (The namespace Windlass creates for an app is shared freely: it
 * is never tracked.)
 *
 * <p>The parser checks what it reads; whoever renders applications (Kustomize, Helm) checks again once their objects
 * are known. Applications already invalid take no part, so nothing is said twice.
 */
public final class SharedObjects {
    private SharedObjects() {}

    /** {@code desired} with both owners of every object two valid applications may declare on one cluster invalid. */
    public static DesiredState check(DesiredState desired) { return check(desired, Owners.NONE); }

    /**
     * {@code desired} with every application that declares an object another keeps on a cluster they may share invalid:
     * the keeper holds it there ({@code owners}), or came first.
     */
    public static DesiredState check(DesiredState desired, Owners owners) {
        Checked checked = check(desired.apps(), desired.clusters(), owners);
        if (checked.diagnostics().isEmpty()) return desired;
        List<Diagnostic> all = new ArrayList<>(desired.diagnostics());
        all.addAll(checked.diagnostics());
        all.sort(null);
        return desired.withApps(checked.apps(), all);
    }

    private record Checked(SortedMap<String, Application> apps, List<Diagnostic> diagnostics) {}

    private static Manifest declaration(Application app, ObjectRef ref) {
        return app.allManifests().stream().filter(x -> x.ref().equals(ref)).findFirst().orElseThrow();
    }

    /**
     * Which of {@code declaring} keeps {@code ref} on {@code cluster}: the one holding it there, else the one whose
     * declaring file came into the repo strictly first; null when neither is known.
     */
    private static String keeper(Set<String> declaring, String cluster, ObjectRef ref, SortedMap<String, Application> apps, Owners owners) {
        String holder = owners.holder(cluster, ref);
        if (holder != null && declaring.contains(holder)) return holder;
        String first = null;
        Long earliest = null;
        boolean tie = false;
        for (String app : declaring) {
            Long when = owners.introduced(declaration(apps.get(app), ref).location().path());
            if (when == null) return null;
            if (earliest == null || when < earliest) {
                earliest = when;
                first = app;
                tie = false;
            } else if (when.equals(earliest)) {
                tie = true;
            }
        }
        return tie ? null : first;
    }

    private static Checked check(SortedMap<String, Application> apps, Map<String, Cluster> clusters, Owners owners) {
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
        claims.forEach((cluster, byRef) -> byRef.forEach((ref, declaring) -> {
            if (declaring.size() > 1) {
                for (String app : declaring) where.computeIfAbsent(app, a -> new TreeMap<>()).computeIfAbsent(ref, r -> new TreeSet<>()).add(cluster);
            }
        }));
        SortedMap<String, Application> result = new TreeMap<>(apps);
        List<Diagnostic> out = new ArrayList<>();
        where.forEach((app, refs) -> {
            List<Diagnostic> more = new ArrayList<>();
            refs.forEach((ref, on) -> {
                Manifest m = declaration(apps.get(app), ref);
                Map<String, String> keptBy = new TreeMap<>();  // cluster → the application that keeps it there
                Set<String> others = new TreeSet<>();
                for (String c : on) {
                    Set<String> declaring = claims.get(c).get(ref);
                    String keeper = keeper(declaring, c, ref, apps, owners);
                    if (keeper != null) keptBy.put(c, keeper);
                    others.addAll(declaring);
                }
                others.remove(app);
                if (keptBy.size() == on.size() && keptBy.values().stream().allMatch(app::equals)) return;  // it keeps it everywhere
                if (keptBy.isEmpty() || keptBy.containsValue(app)) {
                    more.add(Diagnostic.error(m.location(), ref + " is also declared by application " + String.join(", ", others) + " on "
                            + String.join(", ", on) + "; an object has one owner: remove it from one of them"));
                    return;
                }
                String keeper = keptBy.values().iterator().next();
                Manifest theirs = declaration(apps.get(keeper), ref);
                boolean holds = keptBy.entrySet().stream().anyMatch(e -> e.getValue().equals(owners.holder(e.getKey(), ref)));
                more.add(Diagnostic.error(m.location(), ref + " is already declared by application " + keeper + " at " + theirs.location()
                        + (holds ? ", which holds it on " + String.join(", ", keptBy.keySet()) : ", which declared it first")
                        + "; an object has one owner: remove it from this application, or from " + keeper + " first"));
            });
            if (more.isEmpty()) return;
            out.addAll(more);
            result.put(app, AppAssembly.withMore(apps.get(app), more));
        });
        return new Checked(result, out);
    }
}
