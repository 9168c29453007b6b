package dev.windlass.policy.parse;

import dev.windlass.policy.failover.StatePath;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.FailoverPolicy;
import dev.windlass.policy.model.Manifest;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A state-preservation rule may not read a Secret: what a rule reads is written to the status branch and as labels on
 * other clusters. A rule whose path finds a value in a Secret of an application its policy moves is an error at the
 * policy, and the application is held until it is fixed (failover never reads Secrets anyway; this says so before).
 */
final class SecretReadingRules {
    private SecretReadingRules() {}

    record Checked(SortedMap<String, Application> apps, List<Diagnostic> diagnostics) {}

    static Checked check(SortedMap<String, Application> apps, Map<String, String> failoverOf, Map<String, FailoverPolicy> policies) {
        SortedMap<String, Application> result = new TreeMap<>(apps);
        List<Diagnostic> out = new ArrayList<>();
        failoverOf.forEach((name, policyName) -> {
            Application app = apps.get(name);
            FailoverPolicy policy = policies.get(policyName);
            if (app == null || policy == null) return;
            Set<FailoverPolicy.StateRule> rules = new LinkedHashSet<>(policy.rulesFor(policy.application()));
            rules.addAll(policy.rulesFor(policy.cluster()));
            List<Diagnostic> found = new ArrayList<>();
            for (FailoverPolicy.StateRule rule : rules) {
                StatePath path = StatePath.compile(rule.jsonPath());
                for (Manifest m : app.manifests()) {
                    if (!isSecret(m) || !path.read(m.body()).found()) continue;
                    found.add(Diagnostic.error(policy.location(), "FailoverPolicy " + policy.name() + ": state rule " + rule.aliasLabelName()
                            + " (" + rule.jsonPath() + ") reads " + m.ref() + " of application " + name + "; what a rule reads is written to"
                            + " Git and onto other clusters, so it may not read a Secret: preserve a value kept in a ConfigMap or annotation"));
                }
            }
            if (found.isEmpty()) return;
            out.addAll(found);
            List<Diagnostic> all = new ArrayList<>(app.diagnostics());
            all.addAll(found);
            all.sort(null);
            result.put(name, app.withDiagnostics(all));
        });
        return new Checked(result, out);
    }

    private static boolean isSecret(Manifest m) { return m.ref().group().isEmpty() && m.ref().kind().equals("Secret"); }
}
