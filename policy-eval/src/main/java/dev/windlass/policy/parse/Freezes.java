package dev.windlass.policy.parse;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Freeze;
import dev.windlass.policy.model.LabelSelector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The Freezes of a commit. A Freeze with any error is not used, and since dropping it would silently
 * un-freeze what it covers, every application it could cover is held instead (with a diagnostic saying
 * which Freeze to fix). When not even its selector can be read, that is every application.
 */
final class Freezes {
    private final SortedMap<String, FreezeReader.Read> valid = new TreeMap<>();
    private final Map<String, YamlDoc> docs = new HashMap<>();
    private final List<Broken> broken = new ArrayList<>();

    /** A Freeze that is not used, and the applications it may cover: by selector and names; null selector and no names = all. */
    private record Broken(YamlDoc doc, String name, LabelSelector selector, List<String> applications) {
        boolean mayCover(Application app) {
            if (selector == null && applications.isEmpty()) return true;
            return applications.contains(app.name()) || selector != null && selector.matches(app.labels());
        }
    }

    record Matched(SortedMap<String, Application> apps, List<Diagnostic> diagnostics) {}

    void read(YamlDoc doc, List<Diagnostic> found) {
        int before = found.size();
        FreezeReader.Read r = FreezeReader.read(doc, found);
        if (r != null && valid.containsKey(r.freeze().name())) {
            found.add(Diagnostic.error(doc.location(), "Freeze '" + r.freeze().name() + "' is defined twice; the first is at "
                    + docs.get(r.freeze().name()).location() + ". Rename or remove one"));
            broken.add(new Broken(doc, r.freeze().name(), r.freeze().selector(), r.freeze().applications()));
            return;
        }
        if (r != null && found.subList(before, found.size()).stream().noneMatch(Diagnostic::isError)) {
            valid.put(r.freeze().name(), r);
            docs.put(r.freeze().name(), doc);
            return;
        }
        broken.add(leniently(doc));
    }

    /** Every usable Freeze, by name. */
    List<Freeze> freezes() { return valid.values().stream().map(FreezeReader.Read::freeze).toList(); }

    /** Holds the applications a broken Freeze may cover; warns about names in a Freeze that nothing has. */
    Matched match(SortedMap<String, Application> apps, Map<String, Cluster> clusters) {
        List<Diagnostic> out = new ArrayList<>();
        for (FreezeReader.Read r : valid.values()) {
            Freeze f = r.freeze();
            for (String a : f.applications()) {
                if (!apps.containsKey(a)) out.add(Diagnostic.warning(r.applicationsAt(), "Freeze " + f.name() + " names application '" + a
                        + "' in spec.applications, but no Application has that name; it holds nothing by that name"));
            }
            for (String c : f.clusterNames()) {
                if (!clusters.containsKey(c)) out.add(Diagnostic.warning(r.clusterNamesAt(), "Freeze " + f.name() + " names cluster '" + c
                        + "' in spec.clusterNames, but no Cluster has that name; it holds nothing by that name"));
            }
        }
        SortedMap<String, Application> result = new TreeMap<>(apps);
        for (Application app : apps.values()) {
            List<Diagnostic> more = new ArrayList<>();
            for (Broken b : broken) {
                if (b.mayCover(app)) {
                    more.add(Diagnostic.error(app.location(), "Application " + app.name() + " may be frozen by Freeze " + b.name()
                            + " (" + b.doc().location() + "), which has errors; nothing is applied until it is fixed"));
                }
            }
            if (more.isEmpty()) continue;
            List<Diagnostic> all = new ArrayList<>(app.diagnostics());
            all.addAll(more);
            all.sort(null);
            result.put(app.name(), AppAssembly.withDiagnostics(app, all));
            out.addAll(more);
        }
        return new Matched(result, out);
    }

    /** What a Freeze with errors may cover, read as far as it can be; when its selector or names cannot be read, everything. */
    private static Broken leniently(YamlDoc doc) {
        Object meta = doc.value().get("metadata");
        Object name = meta instanceof Map<?, ?> m ? m.get("name") : null;
        String shown = name == null ? doc.path() : name.toString();
        List<Diagnostic> problems = new ArrayList<>();
        Fields spec = Fields.root(doc, "Freeze", problems).object("spec");
        if (spec == null) return new Broken(doc, shown, null, List.of());
        LabelSelector selector = spec.has("selector") ? SelectorReader.read(spec, "selector") : null;
        List<String> applications = spec.strings("applications");
        if (!problems.isEmpty()) return new Broken(doc, shown, null, List.of());
        return new Broken(doc, shown, selector, applications);
    }
}
