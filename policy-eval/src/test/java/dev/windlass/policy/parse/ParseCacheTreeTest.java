package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.model.Diagnostic;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;

/**
 * A kept parse lets each document's node tree go once the document is read; a document read again (another default
 * namespace) has its tree composed again from the file's text, and what is said about it points at the same place.
 */
class ParseCacheTreeTest {
    private static final Scope SCOPE = new Scope(Scope.BUILT_IN);

    private static final String FILE = """
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: first
            ---
            apiVersion: v1
            kind: List
            items:
              - apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: second
              - apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: third
                  labels:
                    team: "not a label value!"
            """;

    @Test
    void aDocumentReadAgainAfterItsTreeWasLetGoIsPlacedAsBefore() {
        ParseCache cache = new ParseCache();
        YamlFile file = cache.get("apps/web/objects.yaml", "c1", () -> FILE.getBytes(StandardCharsets.UTF_8));
        assertEquals(2, file.docs().size());

        List<Diagnostic> said = new ArrayList<>();
        List<YamlDoc> items = cache.objects(file.docs().get(1), said);
        assertEquals(List.of(), said);
        assertEquals(2, items.size());
        YamlDoc third = items.get(1);
        Node before = third.node();

        List<Diagnostic> inA = new ArrayList<>();
        cache.manifest(third, "a", SCOPE, inA);
        List<Diagnostic> inB = new ArrayList<>();
        cache.manifest(third, "b", SCOPE, inB);

        assertTrue(inA.stream().anyMatch(Diagnostic::isError), "the bad label value is an error: " + inA);
        assertEquals(inA, inB);
        Diagnostic error = inA.stream().filter(Diagnostic::isError).findFirst().orElseThrow();
        assertEquals(18, error.location().line(), error.toString());
        assertEquals(15, error.location().column(), error.toString());

        Node after = third.node();
        assertNotSame(before, after, "the item's tree was let go after its first reading, so it was composed again");
        assertEquals(before.getStartMark().getLine(), after.getStartMark().getLine());
        assertEquals(before.getStartMark().getColumn(), after.getStartMark().getColumn());
    }

    @Test
    void theFirstDocumentsTreeIsComposedAgainFromItsOwnPlace() {
        ParseCache cache = new ParseCache();
        YamlFile file = cache.get("apps/web/objects.yaml", "c1", () -> FILE.getBytes(StandardCharsets.UTF_8));
        YamlDoc first = file.docs().get(0);
        cache.manifest(first, "a", SCOPE, new ArrayList<>());
        Node again = first.node();
        assertEquals(0, again.getStartMark().getLine());
        assertEquals("first", YamlLines.scalar((MappingNode) YamlLines.get((MappingNode) again, "metadata"), "name"));
    }

    /**
     * An Application document is read once per file content: a later pass of the same content gets the same declaration
     * and hears the same diagnostics, and the tree its reading needed is not kept.
     */
    @Test
    void anApplicationIsReadOnceAndItsTreeIsLetGo() {
        ParseCache cache = new ParseCache();
        String app = """
                apiVersion: windlass.dev/v1alpha1
                kind: Application
                metadata: {name: web}
                spec:
                  namespace: web
                  placement: {clusterNames: [eu-1]}
                  colour: blue
                """;
        YamlDoc doc = cache.get("apps/web/app.yaml", "c1", () -> app.getBytes(StandardCharsets.UTF_8)).docs().get(0);
        Node whileReading = doc.node();

        List<Diagnostic> first = new ArrayList<>();
        AppDeclaration read = cache.application(doc, first);
        cache.beginPass(java.util.Map.of("apps/web/app.yaml", "c1"));
        List<Diagnostic> second = new ArrayList<>();
        AppDeclaration again = cache.application(doc, second);

        assertEquals("web", read.name());
        assertTrue(read == again, "the same content is not read again");
        assertEquals(1, first.size(), first.toString());
        assertEquals("apps/web/app.yaml:7:3", first.get(0).location().toString(), first.toString());
        assertEquals(first, second);
        assertNotSame(whileReading, doc.node(), "the tree was let go once the document was read");
    }
}
