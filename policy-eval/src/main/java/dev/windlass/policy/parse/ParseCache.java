package dev.windlass.policy.parse;

import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Parsed files by path and content id, so a pass re-parses only the files whose content changed.
 * A memo, not state: dropping it changes speed, never results.
 */
public final class ParseCache {
    private Map<FileKey, YamlFile> files = new HashMap<>();
    private int parsedLastPass;
    /** Each cached document read as a manifest, by the document itself: hashing it is most of assembling an app. */
    private Map<YamlDoc, ManifestRead> manifests = new IdentityHashMap<>();
    private int manifestsReadLastPass;
    /** Each cached list document's items, by the document: an item must be the same document on every pass to be found above. */
    private Map<YamlDoc, Items> lists = new IdentityHashMap<>();
    /** Each cached Application document as read: reading it needs the node tree, which is let go once it is read. */
    private Map<YamlDoc, AppRead> applications = new IdentityHashMap<>();

    /** What {@link ManifestReader#read} made of a document, and the two things besides the document it depends on. */
    private record ManifestRead(String defaultNamespace, boolean clusterScoped, Manifest manifest, List<Diagnostic> said) {}

    /** A file's content at a path: a file moved or copied elsewhere is parsed again, for its diagnostics name the path. */
    private record FileKey(String path, String contentId) {}

    /** What {@link ApplicationReader#read} made of a document (null when it could not be read) and what it said. */
    private record AppRead(AppDeclaration declaration, List<Diagnostic> said) {}

    /** What {@link ListItems#of} made of a list document. */
    private record Items(List<YamlDoc> objects, List<Diagnostic> said) {}

    YamlFile get(String path, String contentId, Supplier<byte[]> content) {
        FileKey key = new FileKey(path, contentId);
        YamlFile f = files.get(key);
        if (f == null) {
            f = YamlReader.read(path, contentId, content.get());
            files.put(key, f);
            parsedLastPass++;
        }
        return f;
    }

    /**
     * The objects a plain document holds ({@link ListItems#of}): the document itself, or the items of a list, made once
     * per file content. What was said about the items is said again either way.
     */
    List<YamlDoc> objects(YamlDoc doc, List<Diagnostic> out) {
        if (!ListItems.isList(doc.value())) return List.of(doc);
        Items items = lists.get(doc);
        if (items == null) {
            List<Diagnostic> said = new ArrayList<>();
            items = new Items(ListItems.of(doc, said), List.copyOf(said));
            lists.put(doc, items);
            // Each item keeps its own part of the tree until it is read; the list's whole tree is not needed again.
            doc.tree().release();
        }
        out.addAll(items.said);
        return items.objects;
    }

    /**
     * {@link ManifestReader#read}, or what it gave last time for this very document (same file content) read into the
     * same default namespace with the same scope for its kind. Its diagnostics are said again either way.
     */
    Manifest manifest(YamlDoc doc, String defaultNamespace, Scope scope, List<Diagnostic> out) {
        boolean clusterScoped = clusterScoped(doc, scope);
        ManifestRead before = manifests.get(doc);
        if (before == null || !before.defaultNamespace.equals(defaultNamespace) || before.clusterScoped != clusterScoped) {
            List<Diagnostic> said = new ArrayList<>();
            Manifest m = ManifestReader.read(doc, defaultNamespace, scope, said);
            before = new ManifestRead(defaultNamespace, clusterScoped, m, List.copyOf(said));
            manifests.put(doc, before);
            // Read and kept: the tree is composed again only if the document must be read again (a new default namespace).
            doc.tree().release();
            manifestsReadLastPass++;
        }
        out.addAll(before.said);
        return before.manifest;
    }

    /**
     * {@link ApplicationReader#read}, or what it gave last time for this very document (same file content); its
     * diagnostics are said again either way. Once read, the document's node tree is let go: at 1,000 applications those
     * trees were about 7 MiB of a 90 MiB live heap, kept only to be read again on the next commit.
     */
    AppDeclaration application(YamlDoc doc, List<Diagnostic> out) {
        AppRead read = applications.get(doc);
        if (read == null) {
            List<Diagnostic> said = new ArrayList<>();
            read = new AppRead(ApplicationReader.read(doc, said), List.copyOf(said));
            applications.put(doc, read);
            doc.tree().release();
        }
        out.addAll(read.said);
        return read.declaration;
    }

    private static boolean clusterScoped(YamlDoc doc, Scope scope) {
        return doc.value().get("apiVersion") instanceof String apiVersion && doc.value().get("kind") instanceof String kind
                && scope.isClusterScoped(ObjectRef.groupOf(apiVersion), kind);
    }

    /**
     * Starts a pass: forgets files that are not in the new commit, and the lists expanded, manifests and applications read
     * from them.
     */
    void beginPass(Map<String, String> current) {
        parsedLastPass = 0;
        manifestsReadLastPass = 0;
        Map<FileKey, YamlFile> kept = new HashMap<>();
        Map<YamlDoc, ManifestRead> keptManifests = new IdentityHashMap<>();
        Map<YamlDoc, Items> keptLists = new IdentityHashMap<>();
        Map<YamlDoc, AppRead> keptApplications = new IdentityHashMap<>();
        current.forEach((path, id) -> {
            FileKey key = new FileKey(path, id);
            YamlFile f = files.get(key);
            if (f == null) return;
            kept.put(key, f);
            for (YamlDoc doc : f.docs()) {
                AppRead app = applications.get(doc);
                if (app != null) keptApplications.put(doc, app);
                Items items = lists.get(doc);
                if (items != null) keptLists.put(doc, items);
                for (YamlDoc object : items != null ? items.objects : List.of(doc)) {
                    ManifestRead read = manifests.get(object);
                    if (read != null) keptManifests.put(object, read);
                }
            }
        });
        files = kept;
        manifests = keptManifests;
        lists = keptLists;
        applications = keptApplications;
    }

    /** How many documents the last pass read as manifests afresh (the rest came from the cache). */
    public int manifestsReadLastPass() { return manifestsReadLastPass; }

    /** How many files the last pass actually parsed (the rest came from the cache). */
    public int parsedLastPass() { return parsedLastPass; }
}
