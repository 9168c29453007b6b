package dev.windlass.policy.parse;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.RolloutPolicy;
import dev.windlass.policy.model.SourceLocation;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Rollout policies of a commit and which application each one rolls out. Exactly one policy may select
 * an application; a cluster belongs to one group. A policy with errors, or either of two by one name, holds
 * every application it selects (rolling them out without it would skip its gates).
 */
final class Rollouts {
    private final SelectingPolicies<RolloutPolicy> policies = new SelectingPolicies<>("RolloutPolicy", RolloutPolicy::name, RolloutPolicy::selector);

    record Matched(SortedMap<String, Application> apps, Map<String, String> rolloutOf, List<Diagnostic> diagnostics) {}

    void read(YamlDoc doc, List<Diagnostic> found) {
        int before = found.size();
        policies.add(doc, RolloutPolicyReader.read(doc, found), found, before);
    }

    /** Every usable policy, by name. */
    SortedMap<String, RolloutPolicy> policies() { return policies.policies(); }

    Matched match(SortedMap<String, Application> apps, Map<String, Cluster> clusters, Set<String> brokenFiles) {
        SortedMap<String, RolloutPolicy> usable = policies.policies();
        List<Diagnostic> out = new ArrayList<>(policies.nameErrors());
        Map<String, List<Diagnostic>> policyErrors = new HashMap<>();
        policies.usable().forEach((name, r) -> {
            List<Diagnostic> errors = groupOverlaps(r.policy(), r.doc(), clusters.values());
            out.addAll(errors);
            if (!errors.isEmpty()) policyErrors.put(name, errors);
        });
        Map<String, List<Diagnostic>> overlaps = policies.overlaps(apps.values(), "exactly one may roll out an application: narrow the selectors");
        SortedMap<String, Application> result = new TreeMap<>(apps);
        Map<String, String> rolloutOf = new TreeMap<>();
        for (Application app : apps.values()) {
            List<Diagnostic> more = new ArrayList<>(overlaps.getOrDefault(app.name(), List.of()));
            List<String> matching = usable.values().stream().filter(p -> p.selector().matches(app.labels())).map(RolloutPolicy::name).toList();
            if (matching.size() == 1) {
                rolloutOf.put(app.name(), matching.get(0));
                more.addAll(policyErrors.getOrDefault(matching.get(0), List.of()));
            }
            more.addAll(policies.holding(app, "rolled out", "nothing is rolled out until it is fixed"));
            if (!more.isEmpty()) {
                out.addAll(more);
                result.put(app.name(), AppAssembly.withMore(app, more));
            }
        }
        return new Matched(result, rolloutOf, out.stream().distinct().toList());
    }

    /** Two groups of one policy that select one cluster: an error at each group's clusterSelector, naming the other's place. */
    private static List<Diagnostic> groupOverlaps(RolloutPolicy p, YamlDoc doc, Collection<Cluster> clusters) {
        List<Diagnostic> out = new ArrayList<>();
        List<RolloutPolicy.Group> groups = p.groups();
        for (int i = 0; i < groups.size(); i++) {
            for (int j = i + 1; j < groups.size(); j++) {
                RolloutPolicy.Group a = groups.get(i);
                RolloutPolicy.Group b = groups.get(j);
                List<String> both = clusters.stream().filter(c -> a.clusterSelector().matches(c.labels()) && b.clusterSelector().matches(c.labels()))
                        .map(Cluster::name).toList();
                if (both.isEmpty()) continue;
                SourceLocation atA = DocPositions.at(doc, "spec", "groups", String.valueOf(i), "clusterSelector");
                SourceLocation atB = DocPositions.at(doc, "spec", "groups", String.valueOf(j), "clusterSelector");
                out.add(groupOverlap(p, a, b, atB, both, atA));
                out.add(groupOverlap(p, b, a, atA, both, atB));
            }
        }
        return out;
    }

    private static Diagnostic groupOverlap(RolloutPolicy p, RolloutPolicy.Group one, RolloutPolicy.Group other, SourceLocation otherAt,
                                           List<String> clusters, SourceLocation at) {
        return Diagnostic.error(at, "group " + one.name() + " of RolloutPolicy " + p.name() + " selects " + (clusters.size() == 1 ? "cluster " : "clusters ")
                + String.join(", ", clusters) + ", which group " + other.name() + " (" + otherAt + ") selects too; a cluster belongs to one group: "
                + "narrow the selectors");
    }
}
