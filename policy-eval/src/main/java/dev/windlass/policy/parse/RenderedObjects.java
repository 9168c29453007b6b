package dev.windlass.policy.parse;

import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.model.SourceLocation;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads what a tool rendered (a YAML stream) into manifests, with the same rules as plain manifests in the repo: lists
 * expanded, namespaces defaulted, schema checked, each object once. A problem is said at the file the render started
 * from, naming the rendered document and its line, since the rendered text is in no file of the repo.
 */
public final class RenderedObjects {
    private static final Pattern DOCUMENT_START = Pattern.compile("(?m)^---[ \\t]*(?:#.*)?$");

    private RenderedObjects() {}

    /**
     * @param origin    the file the render started from (kustomization.yaml, Chart.yaml), where problems are said
     * @param namespace the application's namespace, for objects that give none
     */
    public static List<Manifest> read(String origin, String yaml, String namespace, List<Diagnostic> out) {
        List<Diagnostic> said = new ArrayList<>();
        String[] chunks = DOCUMENT_START.split(yaml);
        Scope scope = scopeOf(origin, chunks);
        Map<ObjectRef, Manifest> byRef = new LinkedHashMap<>();
        boolean hasNamespace = false;
        int document = 0;
        int index = 0;
        // One document at a time: its YAML tree is dropped once it is a manifest, so a large render never holds the
        // trees of all its documents at once.
        for (int c = 0; c < chunks.length; c++) {
            String chunk = chunks[c];
            chunks[c] = null;
            if (chunk.isBlank()) continue;
            document++;
            YamlFile f = YamlReader.read(origin, "", chunk.getBytes(StandardCharsets.UTF_8));
            int d = document;
            f.diagnostics().forEach(x -> said.add(rendered(x, origin, d)));
            for (YamlDoc doc : f.docs()) {
                List<Diagnostic> listed = new ArrayList<>();
                List<YamlDoc> objects = ListItems.isList(doc.value()) ? ListItems.of(doc, listed) : List.of(doc);
                listed.forEach(x -> said.add(rendered(x, origin, d)));
                for (YamlDoc object : objects) {
                    index++;
                    List<Diagnostic> read = new ArrayList<>();
                    Manifest m = ManifestReader.read(object, namespace, scope, read);
                    int n = index;
                    read.forEach(x -> said.add(rendered(x, origin, n)));
                    if (m == null) continue;
                    if (byRef.putIfAbsent(m.ref(), m) != null) {
                        said.add(Diagnostic.error(SourceLocation.file(origin), "the rendered output holds " + m.ref() + " twice; keep one"));
                    }
                    if (m.ref().kind().equals("Namespace") && m.ref().group().isEmpty() && m.ref().name().equals(namespace)) hasNamespace = true;
                }
            }
        }
        List<Manifest> result = new ArrayList<>(byRef.values());
        if (!hasNamespace && !namespace.equals("default")) {
            result.add(ManifestReader.implicitNamespace(namespace, SourceLocation.file(origin)));
        }
        out.addAll(said);
        return result;
    }

    private static Diagnostic rendered(Diagnostic d, String origin, int document) {
        return new Diagnostic(d.severity(), SourceLocation.file(origin), "rendered document " + document + ", line "
                + d.location().line() + ": " + d.message());
    }

    /**
     * The built-in cluster-scoped kinds and those of every definition rendered with them: only the documents that name
     * {@code CustomResourceDefinition} are read for it.
     */
    private static Scope scopeOf(String origin, String[] chunks) {
        Set<String> scoped = new HashSet<>(Scope.BUILT_IN);
        for (String chunk : chunks) {
            if (!chunk.contains("CustomResourceDefinition")) continue;
            for (YamlDoc doc : YamlReader.read(origin, "", chunk.getBytes(StandardCharsets.UTF_8)).docs()) {
                List<YamlDoc> objects = ListItems.isList(doc.value()) ? ListItems.of(doc, new ArrayList<>()) : List.of(doc);
                for (YamlDoc d : objects) {
                    if (!"CustomResourceDefinition".equals(d.value().get("kind"))) continue;
                    if (d.value().get("spec") instanceof Map<?, ?> spec && "Cluster".equals(spec.get("scope"))
                            && spec.get("names") instanceof Map<?, ?> names) {
                        scoped.add(spec.get("group") + "/" + names.get("kind"));
                    }
                }
            }
        }
        return new Scope(scoped);
    }
}
