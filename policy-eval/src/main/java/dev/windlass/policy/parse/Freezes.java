package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Freeze;
import dev.windlass.policy.model.LabelSelector;
import dev.windlass.policy.model.SourceLocation;
import java.util.ArrayList;
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
    private final SameNames names = new SameNames("Freeze");
    /** Freezes read without errors, in the order read; one whose name is defined twice is not used. */
    private final List<Valid> valid = new ArrayList<>();
    private final List<Broken> broken = new ArrayList<>();

    private record Valid(FreezeReader.Read read, YamlDoc doc) {}

    /** A Freeze that is not used, where, why, and the applications it may cover: by selector and names; null selector and no names = all. */
    private record Broken(SourceLocation at, String name, LabelSelector selector, List<String> applications, String why) {
        boolean mayCover(Application app) {
            if (selector == null && applications.isEmpty()) return true;
            return applications.contains(app.name()) || selector != null && selector.matches(app.labels());
        }
    }

    record Matched(SortedMap<String, Application> apps, List<Diagnostic> diagnostics) {}

    void read(YamlDoc doc, List<Diagnostic> found) {
        names.add(doc);
        int before = found.size();
        FreezeReader.Read r = FreezeReader.read(doc, found);
        if (r != null && found.subList(before, found.size()).stream().noneMatch(Diagnostic::isError)) {
            valid.add(new Valid(r, doc));
            return;
        }
        broken.add(leniently(doc));
    }

    /** Every usable Freeze, by name: read without errors, and the only one of its name. */
    List<Freeze> freezes() { return usable().stream().map(FreezeReader.Read::freeze).toList(); }

    private List<FreezeReader.Read> usable() {
        SortedMap<String, FreezeReader.Read> byName = new TreeMap<>();
        for (Valid v : valid) if (!names.duplicated(v.read().freeze().name())) byName.put(v.read().freeze().name(), v.read());
        return List.copyOf(byName.values());
    }

    /** The Freezes that are not used: those with errors, and each of two that share a name. */
    private List<Broken> unused() {
        List<Broken> all = new ArrayList<>(broken);
        for (Valid v : valid) {
            Freeze f = v.read().freeze();
            if (names.duplicated(f.name())) all.add(new Broken(DocPositions.nameAt(v.doc()), f.name(), f.selector(), f.applications(),
                    "whose name is also defined at " + names.elsewhere(v.doc())));
        }
        return all;
    }

    /** Holds the applications a broken Freeze may cover; warns about names in a Freeze that nothing has. */
    Matched match(SortedMap<String, Application> apps, Map<String, Cluster> clusters) {
        List<Broken> unused = unused();
        List<Diagnostic> out = new ArrayList<>(names.errors());
        for (FreezeReader.Read r : usable()) {
            Freeze f = r.freeze();
            for (String a : f.applications()) {
                if (!apps.containsKey(a)) out.add(Diagnostic.warning(r.applicationsAt(), "Freeze " + f.name() + " names application " + Excerpt.quoted(a
                       ) + " in spec.applications, but no Application has that name; it holds nothing by that name"));
            }
            for (String c : f.clusterNames()) {
                if (!clusters.containsKey(c)) out.add(Diagnostic.warning(r.clusterNamesAt(), "Freeze " + f.name() + " names cluster " + Excerpt.quoted(c
                       ) + " in spec.clusterNames, but no Cluster has that name; it holds nothing by that name"));
            }
        }
        SortedMap<String, Application> result = new TreeMap<>(apps);
        for (Application app : apps.values()) {
            List<Diagnostic> more = new ArrayList<>();
            for (Broken b : unused) {
                if (b.mayCover(app)) {
                    more.add(Diagnostic.error(app.location(), "Application " + app.name() + " may be frozen by Freeze " + Excerpt.of(b.name())
                            + " (" + b.at() + "), " + b.why() + "; nothing is applied until it is fixed"));
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
        String why = "which has errors";
        if (spec == null) return new Broken(doc.location(), shown, null, List.of(), why);
        LabelSelector selector = spec.has("selector") ? SelectorReader.read(spec, "selector") : null;
        List<String> applications = spec.strings("applications");
        if (!problems.isEmpty()) return new Broken(doc.location(), shown, null, List.of(), why);
        return new Broken(doc.location(), shown, selector, applications, why);
    }
}
