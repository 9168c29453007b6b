package dev.windlass.policy.parse;

import dev.windlass.policy.model.Diagnostic;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Two applications whose source paths are the same, or one inside the other: every manifest there would be
 * applied by both (in two namespaces, or fought over). An error at each one's {@code spec.source.path}, naming
 * the other application and where its path is written.
 */
final class NestedSources {
    private NestedSources() {}

    /**
     * By application, the errors about its source path. A Helm application reads its chart, not its source path: it takes
     * no part; nor does one read from a Flux Kustomization, whose build reads what its kustomization names, as in Flux,
     * where Kustomizations for other clusters often build the same path; nor one read from an Argo CD Application, whose
     * Applications for other clusters often read the same path (an object two of them apply on one cluster is still an
     * error, at the object).
     */
    static Map<String, List<Diagnostic>> check(Collection<RepoParser.Declared> declared) {
        List<AppDeclaration> read = declared.stream().map(RepoParser.Declared::decl)
                .filter(a -> a.rendering().helm() == null && a.rendering().flux() == null && a.rendering().argo() == null).toList();
        Map<String, List<AppDeclaration>> byPath = new TreeMap<>();
        for (AppDeclaration a : read) byPath.computeIfAbsent(a.sourcePath(), p -> new ArrayList<>()).add(a);
        Map<String, List<Diagnostic>> out = new TreeMap<>();
        for (AppDeclaration a : read) {
            for (AppDeclaration same : byPath.get(a.sourcePath())) {
                if (same != a) add(out, a, "application " + a.name() + " has the same source path " + a.sourcePath() + " as application "
                        + same.name() + " (" + same.sourcePathAt() + ")");
            }
            for (String ancestor : ancestors(a.sourcePath())) {
                for (AppDeclaration outer : byPath.getOrDefault(ancestor, List.of())) {
                    add(out, a, "the source path " + a.sourcePath() + " of application " + a.name() + " is inside the source path "
                            + outer.sourcePath() + " of application " + outer.name() + " (" + outer.sourcePathAt() + ")");
                    add(out, outer, "the source path " + outer.sourcePath() + " of application " + outer.name() + " holds the source path "
                            + a.sourcePath() + " of application " + a.name() + " (" + a.sourcePathAt() + ")");
                }
            }
        }
        return out;
    }

    /** The folders a path is inside: {@code apps/a} and {@code apps} for {@code apps/a/sub}, and the repo's root ("") for any but the root. */
    private static List<String> ancestors(String path) {
        List<String> out = new ArrayList<>();
        for (int slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) out.add(path.substring(0, slash));
        if (!path.isEmpty()) out.add("");
        return out;
    }

    private static void add(Map<String, List<Diagnostic>> out, AppDeclaration at, String what) {
        out.computeIfAbsent(at.name(), n -> new ArrayList<>()).add(Diagnostic.error(at.sourcePathAt(), what
                + "; every manifest there would be applied by both: give each application a folder of its own"));
    }
}
