package dev.windlass.policy.parse;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.FailoverPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Failover policies of a commit and which application each one may move. At most one policy may select
 * an application. A policy with errors (or either of two by the same name) holds every application it may
 * select: running them without it would silently drop the failover the repo asks for.
 */
final class FailoverPolicies {
    private final SelectingPolicies<FailoverPolicy> policies = new SelectingPolicies<>("FailoverPolicy", FailoverPolicy::name, FailoverPolicy::selector);

    record Matched(SortedMap<String, Application> apps, Map<String, String> failoverOf, List<Diagnostic> diagnostics) {}

    void read(YamlDoc doc, List<Diagnostic> found) {
        int before = found.size();
        policies.add(doc, FailoverPolicyReader.read(doc, found), found, before);
    }

    /** Every usable policy, by name. */
    SortedMap<String, FailoverPolicy> policies() { return policies.policies(); }

    Matched match(SortedMap<String, Application> apps) {
        SortedMap<String, FailoverPolicy> usable = policies.policies();
        List<Diagnostic> out = new ArrayList<>(policies.nameErrors());
        SortedMap<String, Application> result = new TreeMap<>(apps);
        Map<String, String> failoverOf = new TreeMap<>();
        Map<String, List<Diagnostic>> overlaps = policies.overlaps(apps.values(), "at most one may move an application: narrow the selectors");
        for (Application app : apps.values()) {
            List<Diagnostic> more = new ArrayList<>(overlaps.getOrDefault(app.name(), List.of()));
            List<String> matching = usable.values().stream().filter(p -> p.selector().matches(app.labels())).map(FailoverPolicy::name).toList();
            if (matching.size() == 1) {
                failoverOf.put(app.name(), matching.get(0));
            }
            more.addAll(policies.holding(app, "moved", "nothing is applied until it is fixed"));
            if (more.isEmpty()) continue;
            out.addAll(more);
            result.put(app.name(), AppAssembly.withMore(app, more));
        }
        return new Matched(result, failoverOf, out.stream().distinct().toList());
    }
}
