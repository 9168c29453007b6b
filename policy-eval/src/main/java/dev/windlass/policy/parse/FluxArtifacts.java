package dev.windlass.policy.parse;

import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.SourceLocation;
import dev.windlass.policy.text.Excerpt;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code ExternalArtifact}s that Flux {@code ArtifactGenerator}s ({@code source.extensions.fluxcd.io/v1beta1}) make
 * from this repo, as folders of it. Windlass reads an artifact whose copy rules keep the repo's folders as they are, below
 * one folder: {@code from: "@repo/apps/staging/**"} to {@code "@artifact/staging/"} and {@code "@repo/apps/base/**"} to
 * {@code "@artifact/base/"} make an artifact that is the folder {@code apps/} (as in Flux's own example repo). Other copy
 * rules are a located error, said on the Kustomizations that use the artifact.
 */
final class FluxArtifacts {
    static final String API_GROUP = "source.extensions.fluxcd.io/";
    static final String API_VERSION = API_GROUP + "v1beta1";
    private static final Pattern FROM = Pattern.compile("@([A-Za-z0-9_-]+)/(?:(.*)/)?\\*\\*");
    private static final Pattern TO = Pattern.compile("@artifact/(?:(.*?)/?)?");

    /**
     * An artifact: the repo folder it is ({@code root}), or the problems that keep it from being read.
     *
     * @param root "" for the repo's root; null when it has problems
     */
    record Artifact(String root, List<String> folders, List<Diagnostic> problems) {
        /** Whether {@code path} (relative to the artifact) is a folder the artifact holds: a copied one, inside one, or above one. */
        boolean holds(String path) {
            if (path.isEmpty()) return true;
            for (String f : folders) {
                if (f.isEmpty() || path.equals(f) || path.startsWith(f + "/") || f.startsWith(path + "/")) return true;
            }
            return false;
        }
    }

    /** By cluster folder, namespace and artifact name. */
    private final Map<List<String>, Artifact> artifacts = new HashMap<>();

    /** Reads one ArtifactGenerator of the cluster folder {@code folder}; what is wrong is kept on each artifact it makes. */
    void read(YamlDoc doc, String folder) {
        List<Diagnostic> own = new ArrayList<>();
        Fields root = Fields.root(doc, "ArtifactGenerator", own);
        root.has("apiVersion");
        root.has("kind");
        if (!doc.apiVersion().equals(API_VERSION)) {
            own.add(Diagnostic.error(root.at("apiVersion"), "apiVersion " + Excerpt.quoted(doc.apiVersion()) + " of ArtifactGenerator is not"
                    + " supported; Windlass reads " + API_VERSION));
        }
        Fields meta = root.object("metadata");
        String namespace = "flux-system";
        if (meta != null) {
            meta.requiredString("name");
            namespace = meta.string("namespace", namespace);
            meta.stringMap("labels");
            meta.stringMap("annotations");
            meta.end();
        }
        Fields spec = root.object("spec");
        root.end();
        if (spec == null) return;
        Map<String, String> aliases = new HashMap<>();  // alias -> why it is not this repo, or "" when it is
        for (Fields s : spec.objects("sources")) {
            String alias = s.requiredString("alias");
            String kind = s.requiredString("kind");
            String name = s.requiredString("name");
            String ns = s.string("namespace", namespace);
            s.end();
            if (alias == null) continue;
            boolean thisRepo = "GitRepository".equals(kind) && FluxKustomizationReader.THIS_REPO.equals(name)
                    && FluxKustomizationReader.THIS_REPO.equals(ns);
            aliases.put(alias, thisRepo ? "" : "source " + Excerpt.quoted(alias) + " (" + kind + " " + name + ") at " + s.at()
                    + " is not this repo; Windlass reads artifacts copied from this repo only (the GitRepository flux-system of a"
                    + " bootstrapped repo) for now");
        }
        for (Fields a : spec.objects("artifacts")) {
            List<Diagnostic> problems = new ArrayList<>(own);
            String name = a.requiredString("name");
            a.string("originRevision", null);
            a.string("revision", null);
            String artifactRoot = null;
            List<String> folders = new ArrayList<>();
            boolean first = true;
            for (Fields c : a.objects("copy")) {
                String from = c.requiredString("from");
                String to = c.requiredString("to");
                if (c.has("exclude")) {
                    problems.add(Diagnostic.error(c.at("exclude"), "ArtifactGenerator copy rule exclude is not supported yet: Windlass reads"
                            + " an artifact as a folder of the repo; remove exclude, or keep the excluded files out of the copied folders"));
                }
                if (c.has("strategy")) problems.add(Diagnostic.error(c.at("strategy"), "ArtifactGenerator copy rule strategy is not supported yet; remove it"));
                c.end();
                if (from == null || to == null) continue;
                String rootOfRule = rootOf(from, to, aliases, c.at(), problems);
                if (rootOfRule == null) continue;
                Matcher target = TO.matcher(to);
                folders.add(target.matches() && target.group(1) != null ? target.group(1) : "");
                if (first) artifactRoot = rootOfRule;
                else if (!rootOfRule.equals(artifactRoot)) {
                    problems.add(Diagnostic.error(c.at(), "ArtifactGenerator copy rules that move folders to different places are not"
                            + " supported yet: this rule makes the artifact the folder " + Excerpt.quoted(rootOfRule) + " of the repo, an earlier one "
                            + Excerpt.quoted(artifactRoot) + "; copy every folder below one folder of the repo to the same place below @artifact/"));
                }
                first = false;
            }
            a.end();
            if (first) problems.add(Diagnostic.error(a.at(), "ArtifactGenerator artifact " + Excerpt.quoted(String.valueOf(name)) + " copies nothing; give copy rules"));
            if (name != null) {
                boolean ok = problems.stream().noneMatch(Diagnostic::isError);
                artifacts.put(List.of(folder, namespace, name), new Artifact(ok ? artifactRoot : null, folders, problems));
            }
        }
        spec.end();
    }

    /** The artifact named {@code name} of the generators in {@code folder} and {@code namespace}, or null when none makes it. */
    Artifact find(String folder, String namespace, String name) {
        return artifacts.get(List.of(folder, namespace, name));
    }

    /**
     * The folder of the repo that a copy rule's artifact is: {@code @repo/D/**} to {@code @artifact/T/} keeps the folders as
     * they are when D ends with T, and the artifact is D without T. Null, with a problem, for other rules.
     */
    private static String rootOf(String from, String to, Map<String, String> aliases, SourceLocation at, List<Diagnostic> problems) {
        Matcher f = FROM.matcher(from);
        Matcher t = TO.matcher(to);
        if (!f.matches() || !t.matches()) {
            problems.add(Diagnostic.error(at, "ArtifactGenerator copy rule from " + Excerpt.quoted(from) + " to " + Excerpt.quoted(to)
                    + " is not supported yet: Windlass reads copies of whole folders, from: \"@<source>/<folder>/**\" to: \"@artifact/<folder>/\""));
            return null;
        }
        String why = aliases.get(f.group(1));
        if (why == null) {
            problems.add(Diagnostic.error(at, "ArtifactGenerator copy rule from " + Excerpt.quoted(from) + " names source "
                    + Excerpt.quoted(f.group(1)) + ", which spec.sources does not have; known: " + String.join(", ", new java.util.TreeSet<>(aliases.keySet()))));
            return null;
        }
        if (!why.isEmpty()) {
            problems.add(Diagnostic.error(at, why));
            return null;
        }
        String dir = f.group(2) == null ? "" : f.group(2);
        String target = t.group(1) == null ? "" : t.group(1);
        if (dir.contains("*") || target.contains("*") || dir.contains("..") || target.contains("..")) {
            problems.add(Diagnostic.error(at, "ArtifactGenerator copy rule from " + Excerpt.quoted(from) + " to " + Excerpt.quoted(to)
                    + " is not supported yet: Windlass reads copies of whole folders, without patterns or '..' in them"));
            return null;
        }
        if (target.isEmpty()) return dir;
        if (dir.equals(target)) return "";
        if (dir.endsWith("/" + target)) return dir.substring(0, dir.length() - target.length() - 1);
        problems.add(Diagnostic.error(at, "ArtifactGenerator copy rule from " + Excerpt.quoted(from) + " to " + Excerpt.quoted(to)
                + " renames a folder, which is not supported yet: Windlass reads an artifact as a folder of the repo, so a copied folder"
                + " must keep its name (to: \"@artifact/" + dir.substring(dir.lastIndexOf('/') + 1) + "/\")"));
        return null;
    }
}
