package dev.windlass.policy.parse;

import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.SourceLocation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Argo CD objects of a repo that Windlass reads itself: {@code Application}s (each one a Windlass application),
 * {@code ApplicationSet}s (each Application they make one more), and what it accepts without applying ({@code AppProject}). They are gathered
 * while the repo is read, and read once the repo's clusters are known.
 *
 * <p>An Application whose plain-directory source holds other Applications is their parent ("app of apps"): they are
 * read as its children, at most {@value #MAX_DEPTH} levels below an Application no other one holds. Applications that
 * hold one another in a ring are errors that name the ring, each link with its file, line and column.
 */
final class ArgoImports {
    static final int MAX_DEPTH = 5;
    private final List<YamlDoc> applications = new ArrayList<>();
    private final List<YamlDoc> applicationSets = new ArrayList<>();

    /** Whether {@code doc} is an Argo CD object read here, rather than a manifest. */
    static boolean claims(YamlDoc doc) {
        return doc.apiVersion().startsWith(ArgoApplicationReader.API_GROUP)
                && Set.of("Application", "ApplicationSet", "AppProject").contains(doc.kind());
    }

    void add(YamlDoc doc) {
        if (doc.kind().equals("Application")) applications.add(doc);
        else if (doc.kind().equals("ApplicationSet")) applicationSets.add(doc);
        // An AppProject groups Applications for Argo CD's access rules: Windlass has no use for it, and applies nothing of it.
    }

    /** Each Application as an application declaration; a file none can be made of is added to {@code broken}. */
    List<RepoParser.Declared> read(ArgoApplicationReader.Context ctx, Set<String> broken, List<Diagnostic> all) {
        List<YamlDoc> docs = new ArrayList<>(applications);
        for (YamlDoc set : applicationSets) {
            List<Diagnostic> found = new ArrayList<>();
            List<YamlDoc> made = ArgoApplicationSetReader.expand(set, ctx, found);
            if (found.stream().anyMatch(Diagnostic::isError)) broken.add(set.path());
            all.addAll(found);
            docs.addAll(made);
        }
        Set<Diagnostic> said = new java.util.HashSet<>();
        Map<YamlDoc, RepoParser.Declared> read = new LinkedHashMap<>();
        for (YamlDoc doc : docs) {
            List<Diagnostic> found = new ArrayList<>();
            AppDeclaration a = ArgoApplicationReader.read(doc, ctx, found);
            if (a == null) {
                broken.add(doc.path());
                for (Diagnostic x : found) if (said.add(x)) all.add(x);
            } else {
                read.put(doc, new RepoParser.Declared(a, doc, found));
            }
        }
        Map<YamlDoc, YamlDoc> parentOf = parents(read, all);
        List<RepoParser.Declared> out = new ArrayList<>();
        for (var e : read.entrySet()) {
            RepoParser.Declared d = e.getValue();
            List<YamlDoc> chain = chain(e.getKey(), parentOf);
            boolean ring = chain.indexOf(chain.get(chain.size() - 1)) < chain.size() - 1;
            AppDeclaration a = d.decl();
            if (ring) {
                d.diagnostics().add(Diagnostic.error(e.getKey().location(), "Argo CD Applications hold one another in a ring, so none of"
                        + " them is ever the first to apply: " + links(chain) + "; take one of them out of the other's source"));
            } else if (chain.size() - 1 > MAX_DEPTH) {
                d.diagnostics().add(Diagnostic.error(e.getKey().location(), "Argo CD Application is " + (chain.size() - 1) + " levels of"
                        + " Applications deep (app of apps), more than Windlass reads (" + MAX_DEPTH + "): " + links(chain)
                        + "; hold it from an Application nearer the top"));
            }
            YamlDoc parent = parentOf.get(e.getKey());
            if (parent != null && read.containsKey(parent)) {
                AppDeclaration p = read.get(parent).decl();
                Map<String, String> labels = new java.util.TreeMap<>(a.labels());
                labels.put(ArgoApplicationReader.LABEL_PARENT, p.name());
                // A parent that Argo CD would not sync leaves its children as they were: a suspended parent holds them too.
                boolean suspend = a.suspend() || suspendedAbove(e.getKey(), parentOf, read);
                a = new AppDeclaration(a.name(), labels, a.sourcePath(), a.sourcePathAt(), a.namespace(), a.placement(), a.clusterNamesAt(),
                        a.syncPolicy(), a.dependsOn(), a.dependsOnAt(), suspend, a.spec(), a.location(), a.annotations(), a.rendering());
            }
            out.add(new RepoParser.Declared(a, d.doc(), d.diagnostics()));
            // The Applications of one ApplicationSet share its template: what is wrong with it is said once.
            for (Diagnostic x : d.diagnostics()) if (said.add(x)) all.add(x);
        }
        return out;
    }

    /**
     * The Application that holds each one: the Application whose plain-directory source reads its file. A file two
     * Applications read is an error at it (in Argo CD they would fight over it), and the first keeps it.
     */
    private static Map<YamlDoc, YamlDoc> parents(Map<YamlDoc, RepoParser.Declared> read, List<Diagnostic> all) {
        Map<YamlDoc, YamlDoc> parentOf = new IdentityHashMap<>();
        for (var p : read.entrySet()) {
            AppDeclaration a = p.getValue().decl();
            ArgoRead argo = a.rendering().argo();
            if (argo == null || a.rendering().helm() != null || argo.kustomize() != null) continue;
            for (YamlDoc child : read.keySet()) {
                if (argo.directories(a.sourcePath(), a.sourcePathAt()).stream().noneMatch(dir -> reads(dir, child.path()))) continue;
                if (child == p.getKey()) continue;  // an Application that applies its own folder: Argo CD's self-managed root
                YamlDoc other = parentOf.putIfAbsent(child, p.getKey());
                if (other != null && other != p.getKey()) {
                    read.get(child).diagnostics().add(Diagnostic.error(child.location(), "Argo CD Application is in the source of two"
                            + " Applications, " + read.get(other).decl().name() + " (" + other.location() + ") and " + a.name() + " ("
                            + p.getKey().location() + "); Argo CD would have both sync it: keep it in one"));
                }
            }
        }
        return parentOf;
    }

    /** Whether the plain directory {@code dir} of an Application reads the file at {@code path}. */
    private static boolean reads(ArgoRead.More dir, String path) {
        String prefix = dir.path().isEmpty() ? "" : dir.path() + "/";
        return path.startsWith(prefix) && dir.directory().reads(path.substring(prefix.length()));
    }

    /** From {@code doc} up through its parents: ends at an Application no other holds, or at the first one met twice. */
    private static List<YamlDoc> chain(YamlDoc doc, Map<YamlDoc, YamlDoc> parentOf) {
        List<YamlDoc> chain = new ArrayList<>();
        Map<YamlDoc, Boolean> seen = new IdentityHashMap<>();
        for (YamlDoc at = doc; at != null; at = parentOf.get(at)) {
            chain.add(at);
            if (seen.put(at, true) != null) break;
        }
        return chain;
    }

    private static boolean suspendedAbove(YamlDoc doc, Map<YamlDoc, YamlDoc> parentOf, Map<YamlDoc, RepoParser.Declared> read) {
        Map<YamlDoc, Boolean> seen = new HashMap<>();
        for (YamlDoc at = parentOf.get(doc); at != null && seen.put(at, true) == null; at = parentOf.get(at)) {
            if (read.containsKey(at) && read.get(at).decl().suspend()) return true;
        }
        return false;
    }

    /** The chain as Argo CD would create it, top first: {@code name (path:line:col) -> ...}. */
    private static String links(List<YamlDoc> chain) {
        List<String> out = new ArrayList<>();
        for (int i = chain.size() - 1; i >= 0; i--) {
            YamlDoc d = chain.get(i);
            SourceLocation at = d.location();
            out.add(DocPositions.name(d) + " (" + at + ")");
        }
        return String.join(" -> ", out);
    }
}
