package dev.windlass.policy.parse;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.LabelSelector;
import dev.windlass.policy.model.SourceLocation;
import java.util.ArrayList;
import java.util.List;
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

    /** A name defined twice: an error at each definition. */
    List<Diagnostic> nameErrors() { return names.errors(); }

    /**
     * Why {@code app} is held by policies that are not used: {@code Application web may be <verb> by <kind> <name> (<where>),
     * <why>; <consequence>}, one per policy that may select it.
     */
    List<Diagnostic> heldBy(Application app, String verb, String consequence) {
        List<Diagnostic> out = new ArrayList<>();
        for (Unused u : unused()) {
            if (u.mayHold(app)) out.add(Diagnostic.error(app.location(), "Application " + app.name() + " may be " + verb + " by " + kind + " "
                    + u.name() + " (" + u.at() + "), " + u.why() + "; " + consequence));
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
