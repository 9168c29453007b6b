package dev.windlass.policy.parse;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.LabelSelector;
import dev.windlass.policy.model.RolloutPolicy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Rollout policies of a commit and which application each one rolls out. Exactly one policy may select
 * an application; a cluster belongs to one group. A policy with errors holds every application it
 * selects (rolling them out without it would skip its gates).
 */
final class Rollouts {
    private final SortedMap<String, RolloutPolicy> policies = new TreeMap<>();
    private final Map<String, YamlDoc> docs = new HashMap<>();
    /** Policies that could not be read, with the selector when it at least could be. */
    private final List<Broken> broken = new ArrayList<>();

    private record Broken(YamlDoc doc, LabelSelector selector, String name) {}

    record Matched(SortedMap<String, Application> apps, Map<String, String> rolloutOf, List<Diagnostic> diagnostics) {}

    void read(YamlDoc doc, List<Diagnostic> found) {
        int before = found.size();
        RolloutPolicy p = RolloutPolicyReader.read(doc, found);
        if (p != null && policies.containsKey(p.name())) {
            found.add(Diagnostic.error(doc.location(), "RolloutPolicy '" + p.name() + "' is defined twice; the first is at "
                    + docs.get(p.name()).location() + ". Rename or remove one"));
            return;
        }
        if (p != null && found.subList(before, found.size()).stream().noneMatch(Diagnostic::isError)) {
            policies.put(p.name(), p);
            docs.put(p.name(), doc);
            return;
        }
        Object name = doc.value().get("metadata") instanceof Map<?, ?> m ? m.get("name") : null;
        broken.add(new Broken(doc, leniently(doc), name == null ? doc.path() : name.toString()));
    }

    SortedMap<String, RolloutPolicy> policies() { return policies; }

    Matched match(SortedMap<String, Application> apps, Map<String, Cluster> clusters, Set<String> brokenFiles) {
        List<Diagnostic> out = new ArrayList<>();
        Map<String, List<Diagnostic>> policyErrors = new HashMap<>();
        for (RolloutPolicy p : policies.values()) {
            for (Cluster c : clusters.values()) {
                List<String> groups = p.groups().stream().filter(g -> g.clusterSelector().matches(c.labels())).map(RolloutPolicy.Group::name).toList();
                if (groups.size() > 1) {
                    Diagnostic d = Diagnostic.error(p.location(), "cluster " + c.name() + " is in groups " + String.join(" and ", groups)
                            + " of RolloutPolicy " + p.name() + "; a cluster belongs to one group: narrow the selectors");
                    out.add(d);
                    policyErrors.computeIfAbsent(p.name(), k -> new ArrayList<>()).add(d);
                }
            }
        }
        SortedMap<String, Application> result = new TreeMap<>(apps);
        Map<String, String> rolloutOf = new TreeMap<>();
        for (Application app : apps.values()) {
            List<Diagnostic> more = new ArrayList<>();
            List<String> matching = policies.values().stream().filter(p -> p.selector().matches(app.labels())).map(RolloutPolicy::name).toList();
            if (matching.size() > 1) {
                Diagnostic d = Diagnostic.error(app.location(), "Application " + app.name() + " is selected by RolloutPolicies "
                        + String.join(" and ", matching) + "; exactly one may roll it out");
                more.add(d);
                out.add(d);
            } else if (matching.size() == 1) {
                rolloutOf.put(app.name(), matching.get(0));
                for (Diagnostic e : policyErrors.getOrDefault(matching.get(0), List.of())) more.add(e);
            }
            for (Broken b : broken) {
                if (b.selector() == null || b.selector().matches(app.labels())) {
                    more.add(Diagnostic.error(app.location(), "Application " + app.name() + " may be rolled out by RolloutPolicy " + b.name()
                            + " (" + b.doc().location() + "), which has errors; nothing is rolled out until it is fixed"));
                }
            }
            if (!more.isEmpty()) {
                List<Diagnostic> all = new ArrayList<>(app.diagnostics());
                all.addAll(more);
                all.sort(null);
                result.put(app.name(), AppAssembly.withDiagnostics(app, all));
            }
        }
        return new Matched(result, rolloutOf, out.stream().distinct().toList());
    }

    /** The selector of a policy whose other fields are wrong, or null when even that cannot be read. */
    private static LabelSelector leniently(YamlDoc doc) {
        List<Diagnostic> ignored = new ArrayList<>();
        Fields root = Fields.root(doc, "RolloutPolicy", ignored);
        Fields spec = root.object("spec");
        if (spec == null || !spec.has("selector")) return null;
        LabelSelector s = SelectorReader.read(spec, "selector");
        return ignored.isEmpty() ? s : null;
    }
}
