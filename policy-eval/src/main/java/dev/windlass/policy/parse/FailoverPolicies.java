package dev.windlass.policy.parse;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.FailoverPolicy;
import dev.windlass.policy.model.LabelSelector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Failover policies of a commit and which application each one may move. At most one policy may select
 * an application. A policy with errors (or a second one by the same name) holds every application it may
 * select: running them without it would silently drop the failover the repo asks for.
 */
final class FailoverPolicies {
    private final SortedMap<String, FailoverPolicy> policies = new TreeMap<>();
    private final Map<String, YamlDoc> docs = new HashMap<>();
    /** Policies that are not used, with the selector when it at least could be read (null: it may select anything). */
    private final List<Broken> broken = new ArrayList<>();

    private record Broken(YamlDoc doc, LabelSelector selector, String name) {}

    record Matched(SortedMap<String, Application> apps, Map<String, String> failoverOf, List<Diagnostic> diagnostics) {}

    void read(YamlDoc doc, List<Diagnostic> found) {
        int before = found.size();
        FailoverPolicy p = FailoverPolicyReader.read(doc, found);
        if (p != null && policies.containsKey(p.name())) {
            found.add(Diagnostic.error(doc.location(), "FailoverPolicy '" + p.name() + "' is defined twice; the first is at "
                    + docs.get(p.name()).location() + ". Rename or remove one"));
            broken.add(new Broken(doc, p.selector(), p.name()));
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

    /** Every usable policy, by name. */
    SortedMap<String, FailoverPolicy> policies() { return policies; }

    Matched match(SortedMap<String, Application> apps) {
        List<Diagnostic> out = new ArrayList<>();
        SortedMap<String, Application> result = new TreeMap<>(apps);
        Map<String, String> failoverOf = new TreeMap<>();
        for (Application app : apps.values()) {
            List<Diagnostic> more = new ArrayList<>();
            List<String> matching = policies.values().stream().filter(p -> p.selector().matches(app.labels())).map(FailoverPolicy::name).toList();
            if (matching.size() > 1) {
                more.add(Diagnostic.error(app.location(), "Application " + app.name() + " is selected by FailoverPolicies "
                        + String.join(" and ", matching) + "; at most one may move it: narrow the selectors"));
            } else if (matching.size() == 1) {
                failoverOf.put(app.name(), matching.get(0));
            }
            for (Broken b : broken) {
                if (b.selector() == null || b.selector().matches(app.labels())) {
                    more.add(Diagnostic.error(app.location(), "Application " + app.name() + " may be moved by FailoverPolicy " + b.name()
                            + " (" + b.doc().location() + "), which has errors; nothing is applied until it is fixed"));
                }
            }
            if (more.isEmpty()) continue;
            out.addAll(more);
            List<Diagnostic> all = new ArrayList<>(app.diagnostics());
            all.addAll(more);
            all.sort(null);
            result.put(app.name(), AppAssembly.withDiagnostics(app, all));
        }
        return new Matched(result, failoverOf, out);
    }

    /** The selector of a policy whose other fields are wrong, or null when even that cannot be read. */
    private static LabelSelector leniently(YamlDoc doc) {
        List<Diagnostic> problems = new ArrayList<>();
        Fields spec = Fields.root(doc, "FailoverPolicy", problems).object("spec");
        if (spec == null || !spec.has("selector")) return null;
        LabelSelector s = SelectorReader.read(spec, "selector");
        return problems.isEmpty() ? s : null;
    }
}
