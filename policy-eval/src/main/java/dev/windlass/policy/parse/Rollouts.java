package dev.windlass.policy.parse;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.Diagnostic;
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
        for (RolloutPolicy p : usable.values()) {
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
            List<String> matching = usable.values().stream().filter(p -> p.selector().matches(app.labels())).map(RolloutPolicy::name).toList();
            if (matching.size() > 1) {
                more.add(Diagnostic.error(app.location(), "Application " + app.name() + " is selected by RolloutPolicies "
                        + String.join(" and ", matching) + "; exactly one may roll it out"));
            } else if (matching.size() == 1) {
                rolloutOf.put(app.name(), matching.get(0));
                more.addAll(policyErrors.getOrDefault(matching.get(0), List.of()));
            }
            more.addAll(policies.heldBy(app, "rolled out", "nothing is rolled out until it is fixed"));
            if (!more.isEmpty()) {
                out.addAll(more);
                result.put(app.name(), AppAssembly.withMore(app, more));
            }
        }
        return new Matched(result, rolloutOf, out.stream().distinct().toList());
    }
}
