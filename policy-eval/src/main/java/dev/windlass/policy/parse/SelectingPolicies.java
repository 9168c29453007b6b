package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.LabelSelector;
import dev.windlass.policy.model.SourceLocation;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Policies of one kind that select applications by label (RolloutPolicy, FailoverPolicy): which are usable, and which
 * are not and why. A policy that is not used (it has errors, or its name is defined twice) holds every application it
 * may select: running them without it would silently drop what the repo asks for.
 */
final class SelectingPolicies<P> {
    private final String kind;
    private final Function<P, String> nameOf;
    private final Function<P, LabelSelector> selectorOf;
    private final SameNames names;
    /** Policies read without errors, in the order read. */
    private final List<Read<P>> read = new ArrayList<>();
    /** Policies with errors. */
    private final List<Unused> broken = new ArrayList<>();

    record Read<P>(P policy, YamlDoc doc) {}

    /** A policy that is not used: where it is, its name, why, and its selector when it could be read (null: it may select anything). */
    record Unused(SourceLocation at, LabelSelector selector, String name, String why) {
        boolean mayHold(Application app) { return selector == null || selector.matches(app.labels()); }
    }

    SelectingPolicies(String kind, Function<P, String> nameOf, Function<P, LabelSelector> selectorOf) {
        this.kind = kind;
        this.nameOf = nameOf;
        this.selectorOf = selectorOf;
        this.names = new SameNames(kind);
    }

    /** One document as read: {@code policy} is null, or {@code found} holds errors from {@code before} on, when it is not usable. */
    void add(YamlDoc doc, P policy, List<Diagnostic> found, int before) {
        names.add(doc);
        if (policy != null && found.subList(before, found.size()).stream().noneMatch(Diagnostic::isError)) {
            read.add(new Read<>(policy, doc));
            return;
        }
        String name = DocPositions.name(doc);
        broken.add(new Unused(doc.location(), leniently(doc), name == null ? doc.path() : name, "which has errors"));
    }

    /** Every usable policy, read without errors and the only one of its name, by name, with its document. */
    SortedMap<String, Read<P>> usable() {
        SortedMap<String, Read<P>> out = new TreeMap<>();
        for (Read<P> r : read) if (!names.duplicated(nameOf.apply(r.policy()))) out.put(nameOf.apply(r.policy()), r);
        return out;
    }

    /** Every usable policy, by name. */
    SortedMap<String, P> policies() {
        SortedMap<String, P> out = new TreeMap<>();
        usable().forEach((name, r) -> out.put(name, r.policy()));
        return out;
    }

    /** The policies that are not used: those with errors, and each of two that share a name. */
    List<Unused> unused() {
        List<Unused> all = new ArrayList<>(broken);
        for (Read<P> r : read) {
            String name = nameOf.apply(r.policy());
            if (names.duplicated(name)) all.add(new Unused(DocPositions.nameAt(r.doc()), selectorOf.apply(r.policy()), name,
                    "whose name is also defined at " + names.elsewhere(r.doc())));
        }
        return all;
    }

    /**
     * Every pair of usable policies that select one application: an error at each one's {@code spec.selector}, naming
     * the applications and where the other is; by application, the errors that hold it.
     */
    Map<String, List<Diagnostic>> overlaps(Collection<Application> apps, String rule) {
        List<Read<P>> list = List.copyOf(usable().values());
        Map<String, List<Diagnostic>> byApp = new TreeMap<>();
        for (int i = 0; i < list.size(); i++) {
            for (int j = i + 1; j < list.size(); j++) {
                Read<P> a = list.get(i);
                Read<P> b = list.get(j);
                List<String> both = apps.stream().filter(app -> selectorOf.apply(a.policy()).matches(app.labels())
                        && selectorOf.apply(b.policy()).matches(app.labels())).map(Application::name).toList();
                if (both.isEmpty()) continue;
                List<Diagnostic> errors = List.of(overlap(a, b, both, rule), overlap(b, a, both, rule));
                for (String app : both) byApp.computeIfAbsent(app, k -> new ArrayList<>()).addAll(errors);
            }
        }
        return byApp;
    }

    private Diagnostic overlap(Read<P> one, Read<P> other, List<String> apps, String rule) {
        return Diagnostic.error(selectorAt(one), kind + " " + nameOf.apply(one.policy()) + " selects " + (apps.size() == 1 ? "application " : "applications ")
                + String.join(", ", apps) + ", which " + kind + " " + nameOf.apply(other.policy()) + " (" + selectorAt(other) + ") selects too; " + rule);
    }

    private static SourceLocation selectorAt(Read<?> r) { return DocPositions.at(r.doc(), "spec", "selector"); }

    /** A name defined twice: an error at each definition. */
    List<Diagnostic> nameErrors() { return names.errors(); }

    /**
     * Why {@code app} is held by policies that are not used: {@code Application web may be <verb> by <kind> <name> (<where>),
     * <why>; <consequence>}, one per policy that may select it.
     */
    List<Diagnostic> holding(Application app, String verb, String consequence) {
        List<Diagnostic> out = new ArrayList<>();
        for (Unused u : unused()) {
            if (u.mayHold(app)) out.add(Diagnostic.error(app.location(), "Application " + app.name() + " may be " + verb + " by " + kind + " "
                    + Excerpt.of(u.name()) + " (" + u.at() + "), " + u.why() + "; " + consequence));
        }
        return out;
    }

    /** The selector of a policy whose other fields are wrong, or null when even that cannot be read. */
    private LabelSelector leniently(YamlDoc doc) {
        List<Diagnostic> problems = new ArrayList<>();
        Fields spec = Fields.root(doc, kind, problems).object("spec");
        if (spec == null || !spec.has("selector")) return null;
        LabelSelector s = SelectorReader.read(spec, "selector");
        return problems.isEmpty() ? s : null;
    }
}
