package dev.windlass.policy.parse;

import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.RemediationPolicy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Remediation policies of a commit, by name. They select clusters, not applications, so nothing is matched
 * here: a policy with errors, or a second one by the same name, is left out with its diagnostics.
 */
final class RemediationPolicies {
    private final SortedMap<String, RemediationPolicy> policies = new TreeMap<>();
    private final Map<String, YamlDoc> docs = new HashMap<>();

    /** Reads one policy; {@code found} gets its problems (an error means it is not used). */
    void read(YamlDoc doc, List<Diagnostic> found) {
        int before = found.size();
        RemediationPolicy p = RemediationPolicyReader.read(doc, found);
        if (p == null || found.subList(before, found.size()).stream().anyMatch(Diagnostic::isError)) return;
        if (policies.containsKey(p.name())) {
            found.add(Diagnostic.error(doc.location(), "RemediationPolicy '" + p.name() + "' is defined twice; the first is at "
                    + docs.get(p.name()).location() + ". Rename or remove one"));
            return;
        }
        policies.put(p.name(), p);
        docs.put(p.name(), doc);
    }

    /** Every usable policy, by name. */
    SortedMap<String, RemediationPolicy> policies() { return policies; }
}
