package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;
import dev.windlass.policy.model.Diagnostic;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The documents of one kind by {@code metadata.name}, to find a name defined twice. Neither definition wins: each is
 * an error at its own {@code metadata.name}, naming the other places, and what the kind holds when one of its objects
 * cannot be used is held for both.
 */
final class SameNames {
    private final String kind;
    private final Map<String, List<YamlDoc>> docs = new TreeMap<>();
    /** The name each document is counted under, when it is not its metadata.name (an application read from a Flux object). */
    private final Map<YamlDoc, String> namedAs = new java.util.IdentityHashMap<>();

    SameNames(String kind) { this.kind = kind; }

    /** Counts a document under its name, whether or not the rest of it can be read; one without a name is not counted. */
    void add(YamlDoc doc) {
        String name = DocPositions.name(doc);
        if (name != null) docs.computeIfAbsent(name, n -> new ArrayList<>()).add(doc);
    }

    /** Counts a document under {@code name}, the name of what it becomes. */
    void add(String name, YamlDoc doc) {
        namedAs.put(doc, name);
        docs.computeIfAbsent(name, n -> new ArrayList<>()).add(doc);
    }

    private String nameOf(YamlDoc doc) { return namedAs.containsKey(doc) ? namedAs.get(doc) : DocPositions.name(doc); }

    boolean duplicated(String name) { return docs.getOrDefault(name, List.of()).size() > 1; }

    /** Every name defined more than once. */
    Set<String> duplicatedNames() {
        Set<String> out = new TreeSet<>();
        docs.forEach((name, ds) -> { if (ds.size() > 1) out.add(name); });
        return out;
    }

    /** The documents defining a name more than once, in the order read. */
    List<YamlDoc> duplicates() {
        return docs.values().stream().filter(ds -> ds.size() > 1).flatMap(List::stream).toList();
    }

    /** Where else the name of {@code doc} is defined: {@code path:line:col}, joined with "and". */
    String elsewhere(YamlDoc doc) {
        List<String> places = new ArrayList<>();
        for (YamlDoc other : docs.get(nameOf(doc))) {
            if (other != doc) places.add(DocPositions.nameAt(other).toString());
        }
        return String.join(" and ", places);
    }

    /** Every place a name is defined: {@code path:line:col}, joined with "and". */
    String places(String name) {
        return String.join(" and ", docs.getOrDefault(name, List.of()).stream().map(d -> DocPositions.nameAt(d).toString()).toList());
    }

    /** One error at each duplicate's name. */
    List<Diagnostic> errors() {
        return duplicatedNames().stream().flatMap(name -> errors(name).stream()).toList();
    }

    /** One error at each definition of {@code name} when it is defined more than once. */
    List<Diagnostic> errors(String name) {
        if (!duplicated(name)) return List.of();
        List<Diagnostic> out = new ArrayList<>();
        for (YamlDoc doc : docs.get(name)) {
            out.add(Diagnostic.error(DocPositions.nameAt(doc), kind + " " + Excerpt.quoted(name) + " is also defined at "
                    + elsewhere(doc) + "; a name may be defined once: rename or remove one (until then neither is used)"));
        }
        return out;
    }
}
