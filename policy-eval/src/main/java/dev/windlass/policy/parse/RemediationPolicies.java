package dev.windlass.policy.parse;

import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.RemediationPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Remediation policies of a commit, by name. They select clusters, not applications, so nothing is matched
 * here: a policy with errors, or either of two by the same name, is left out with its diagnostics, and its
 * file counts as broken.
 */
final class RemediationPolicies {
    private final SameNames names = new SameNames("RemediationPolicy");
    /** Policies read without errors, in the order read. */
    private final List<Read> read = new ArrayList<>();

    private record Read(RemediationPolicy policy, YamlDoc doc) {}

    /** Reads one policy; {@code found} gets its problems (an error means it is not used). */
    void read(YamlDoc doc, List<Diagnostic> found) {
        names.add(doc);
        int before = found.size();
        RemediationPolicy p = RemediationPolicyReader.read(doc, found);
        if (p != null && found.subList(before, found.size()).stream().noneMatch(Diagnostic::isError)) read.add(new Read(p, doc));
    }

    /** What spans policies: a name defined twice is an error at each, and the files of those policies count as broken. */
    List<Diagnostic> check(Set<String> brokenFiles) {
        names.duplicates().forEach(doc -> brokenFiles.add(doc.path()));
        return names.errors();
    }

    /** Every usable policy, by name: read without errors, and the only one of its name. */
    SortedMap<String, RemediationPolicy> policies() {
        SortedMap<String, RemediationPolicy> usable = new TreeMap<>();
        for (Read r : read) if (!names.duplicated(r.policy().name())) usable.put(r.policy().name(), r.policy());
        return usable;
    }
}
