package dev.windlass.policy.parse;

import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.LabelSelector;
import dev.windlass.policy.model.RemediationPolicy;
import dev.windlass.policy.model.SourceLocation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Remediation policies of a commit, by name. They select clusters, not applications, so nothing is matched
 * here: a policy with errors, either of two by the same name, or either of two that may remediate one target,
 * is left out with its diagnostics, and its file counts as broken. A target is governed by one policy: two
 * would each count their own attempts and marks, so a consensus group could have two members in flight.
 */
final class RemediationPolicies {
    private final SameNames names = new SameNames("RemediationPolicy");
    /** Policies read without errors, in the order read. */
    private final List<Read> read = new ArrayList<>();
    /** Names of policies that may remediate a target another one does too; known after {@link #check}. */
    private final Set<String> overlapping = new TreeSet<>();

    private record Read(RemediationPolicy policy, YamlDoc doc) {}

    /** Reads one policy; {@code found} gets its problems (an error means it is not used). */
    void read(YamlDoc doc, List<Diagnostic> found) {
        names.add(doc);
        int before = found.size();
        RemediationPolicy p = RemediationPolicyReader.read(doc, found);
        if (p != null && found.subList(before, found.size()).stream().noneMatch(Diagnostic::isError)) read.add(new Read(p, doc));
    }

    /**
     * What spans policies: a name defined twice is an error at each; so is each of two policies that may remediate one
     * target (the same kind, on a cluster both select, with target selectors some object could match together). The
     * files of those policies count as broken.
     */
    List<Diagnostic> check(Map<String, Cluster> clusters, Set<String> brokenFiles) {
        names.duplicates().forEach(doc -> brokenFiles.add(doc.path()));
        List<Diagnostic> out = new ArrayList<>(names.errors());
        List<Read> named = read.stream().filter(r -> !names.duplicated(r.policy().name())).toList();
        for (int i = 0; i < named.size(); i++) {
            for (int j = i + 1; j < named.size(); j++) {
                Read a = named.get(i);
                Read b = named.get(j);
                List<String> on = shared(a.policy(), b.policy(), clusters);
                if (on.isEmpty()) continue;
                out.add(overlap(a, b, on));
                out.add(overlap(b, a, on));
                for (Read r : List.of(a, b)) {
                    overlapping.add(r.policy().name());
                    brokenFiles.add(r.doc().path());
                }
            }
        }
        return out;
    }

    /** The clusters on which two policies may remediate one target, or none. */
    private static List<String> shared(RemediationPolicy a, RemediationPolicy b, Map<String, Cluster> clusters) {
        if (!group(a.target().apiVersion()).equals(group(b.target().apiVersion())) || !a.target().kind().equals(b.target().kind())) return List.of();
        if (!SelectorOverlap.possible(selector(a), selector(b))) return List.of();
        return clusters.values().stream().filter(c -> a.clusterSelector().matches(c.labels()) && b.clusterSelector().matches(c.labels()))
                .map(Cluster::name).toList();
    }

    private static Diagnostic overlap(Read one, Read other, List<String> clusters) {
        RemediationPolicy p = one.policy();
        return Diagnostic.error(targetAt(one), "RemediationPolicy " + p.name() + " may remediate the same " + p.target().kind()
                + " objects as RemediationPolicy " + other.policy().name() + " (" + targetAt(other) + ") on " + (clusters.size() == 1 ? "cluster " : "clusters ")
                + String.join(", ", clusters) + "; a target is governed by one policy: make the target selectors exclusive (a label one requires "
                + "and the other excludes with DoesNotExist or NotIn) or the cluster selectors disjoint (until then neither is used)");
    }

    private static SourceLocation targetAt(Read r) { return DocPositions.at(r.doc(), "spec", "target", "selector"); }

    private static LabelSelector selector(RemediationPolicy p) {
        return p.target().selector() == null ? LabelSelector.EVERYTHING : p.target().selector();
    }

    /** The API group of an apiVersion: {@code apps} of {@code apps/v1}, empty for {@code v1}. */
    private static String group(String apiVersion) {
        return apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
    }

    /** Every usable policy, by name: read without errors, the only one of its name, and sharing no target (after {@link #check}). */
    SortedMap<String, RemediationPolicy> policies() {
        SortedMap<String, RemediationPolicy> usable = new TreeMap<>();
        for (Read r : read) {
            String name = r.policy().name();
            if (!names.duplicated(name) && !overlapping.contains(name)) usable.put(name, r.policy());
        }
        return usable;
    }
}
