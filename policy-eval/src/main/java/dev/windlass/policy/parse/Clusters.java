package dev.windlass.policy.parse;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.placement.Placement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The Clusters of a commit. A file with a Cluster that has errors counts as broken. A name defined twice is an error
 * at both; the first definition stays known (so nothing placed there reads as removed), and every application either
 * definition may place there is held: which labels and connection are meant is unknown.
 */
final class Clusters {
    private final SameNames names = new SameNames("Cluster");
    private final SortedMap<String, Cluster> used = new TreeMap<>();
    /** Every definition read without errors, in the order read. */
    private final List<Cluster> read = new ArrayList<>();

    void read(YamlDoc doc, List<Diagnostic> found, Set<String> brokenFiles) {
        names.add(doc);
        int before = found.size();
        Cluster c = ClusterReader.read(doc, found);
        if (c != null && found.subList(before, found.size()).stream().noneMatch(Diagnostic::isError)) {
            read.add(c);
            used.putIfAbsent(c.name(), c);
        } else {
            brokenFiles.add(doc.path());
        }
    }

    /** Every known cluster, by name (the first definition of a name defined twice). */
    SortedMap<String, Cluster> clusters() { return used; }

    /** A name defined twice: an error at each definition, whose files count as broken. */
    List<Diagnostic> check(Set<String> brokenFiles) {
        names.duplicates().forEach(doc -> brokenFiles.add(doc.path()));
        return names.errors();
    }

    record Held(SortedMap<String, Application> apps, List<Diagnostic> diagnostics) {}

    /** Holds every application that a definition of a cluster defined twice would place there. */
    Held hold(SortedMap<String, Application> apps) {
        SortedMap<String, Application> result = new TreeMap<>(apps);
        List<Diagnostic> out = new ArrayList<>();
        for (Application app : apps.values()) {
            List<Diagnostic> more = new ArrayList<>();
            for (String name : names.duplicatedNames()) {
                boolean placed = app.placement().clusterNames().contains(name) || read.stream()
                        .filter(c -> c.name().equals(name)).anyMatch(c -> !Placement.place(app, Map.of(name, c), List.of()).isEmpty());
                if (placed) more.add(Diagnostic.error(app.location(), "Application " + app.name() + " may be placed on Cluster " + name
                        + ", which is defined at " + names.places(name) + "; nothing is applied until one is renamed or removed"));
            }
            if (more.isEmpty()) continue;
            out.addAll(more);
            result.put(app.name(), AppAssembly.withMore(app, more));
        }
        return new Held(result, out);
    }
}
