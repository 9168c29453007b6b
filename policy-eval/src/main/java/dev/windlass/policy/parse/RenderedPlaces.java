package dev.windlass.policy.parse;

import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.SourceLocation;
import java.util.List;

/**
 * Where a field of an object a build printed is written in the repo. What kustomize prints keeps no file and line, so
 * an object read from it is found again among the documents of the files the build read that declare it (same kind and
 * name: the base, and the patches an overlay applies to it): a field is said where it is written, in the document that
 * writes most of its path; a field no document writes (made by a generator, say) at the declaration that writes the
 * most of it, else at the object's first declaration, else at {@code fallback}.
 */
final class RenderedPlaces {
    private final List<YamlDoc> declared;
    private final SourceLocation fallback;

    /**
     * @param declared the repo's documents that declare the object, base first
     * @param fallback where to say what no declaration locates (the kustomization the build starts from)
     */
    RenderedPlaces(List<YamlDoc> declared, SourceLocation fallback) {
        this.declared = List.copyOf(declared);
        this.fallback = fallback;
    }

    /** Where the object itself is declared: the first declaration's start, else the fallback. */
    SourceLocation object() { return declared.isEmpty() ? fallback : declared.get(0).location(); }

    /** {@code d}, said at {@code rendered}'s field in the repo rather than at its place in the rendered text. */
    Diagnostic relocated(Diagnostic d, YamlDoc rendered) {
        return new Diagnostic(d.severity(), at(rendered, d.location()), d.message());
    }

    /** The place in the repo of what is at {@code place} in {@code rendered}. */
    SourceLocation at(YamlDoc rendered, SourceLocation place) {
        List<String> keys = DocPositions.keysAt(rendered, place);
        YamlDoc best = null;
        int most = -1;
        for (YamlDoc doc : declared) {
            int depth = DocPositions.depth(doc, keys);
            if (depth > most || depth == most && depth == keys.size()) {  // a later document writing all of it (a patch) wins
                best = doc;
                most = depth;
            }
        }
        if (best == null) return fallback;
        return DocPositions.at(rendered, keys.toArray(String[]::new)).equals(place) ? DocPositions.at(best, keys.toArray(String[]::new))
                : DocPositions.keyAt(best, keys);
    }
}
