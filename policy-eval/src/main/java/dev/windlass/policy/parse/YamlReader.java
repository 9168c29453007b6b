package dev.windlass.policy.parse;

import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.SourceLocation;
import java.io.StringReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Reads one YAML file into documents, keeping positions. Limits guard against hostile input
 * (alias bombs, deep nesting, huge files); duplicate keys are errors, because silently keeping
 * the last one hides mistakes.
 */
public final class YamlReader {

    static final int MAX_ALIASES = 50;
    static final int MAX_DEPTH = 50;
    static final int MAX_BYTES = 3 * 1024 * 1024;

    private YamlReader() {}

    static LoaderOptions options() {
        LoaderOptions o = new LoaderOptions();
        o.setAllowDuplicateKeys(false);
        o.setMaxAliasesForCollections(MAX_ALIASES);
        o.setNestingDepthLimit(MAX_DEPTH);
        o.setCodePointLimit(MAX_BYTES);
        return o;
    }

    public static YamlFile read(String path, String contentId, byte[] bytes) {
        List<Diagnostic> diagnostics = new ArrayList<>();
        if (bytes.length > MAX_BYTES) {
            diagnostics.add(Diagnostic.error(SourceLocation.file(path),
                    "file is " + bytes.length + " bytes, over the " + MAX_BYTES + " byte limit; split it into smaller files"));
            return new YamlFile(path, contentId, List.of(), diagnostics);
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            diagnostics.add(Diagnostic.error(SourceLocation.file(path), "file is not valid UTF-8; save it as UTF-8"));
            return new YamlFile(path, contentId, List.of(), diagnostics);
        }
        LoaderOptions options = options();
        Yaml yaml = new Yaml(options);
        Values values = new Values(options);
        List<YamlDoc> docs = new ArrayList<>();
        try {
            int index = 0;
            for (Node node : yaml.composeAll(new StringReader(text))) {
                int docIndex = index++;
                if (node == null) continue;
                SourceLocation at = at(path, node.getStartMark());
                if (isEmptyDocument(node)) continue;
                if (!(node instanceof MappingNode)) {
                    diagnostics.add(Diagnostic.error(at, "document " + (docIndex + 1) + " is not a mapping; each document must be a Kubernetes-style object with apiVersion and kind"));
                    continue;
                }
                int before = diagnostics.size();
                checkDuplicateKeys(path, node, diagnostics);
                if (diagnostics.size() > before) continue;
                @SuppressWarnings("unchecked")
                Map<String, Object> value = (Map<String, Object>) values.of(node);
                docs.add(new YamlDoc(path, docIndex, node, value, at));
            }
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            SourceLocation at = mark != null ? at(path, mark) : SourceLocation.file(path);
            diagnostics.add(Diagnostic.error(at, "invalid YAML: " + oneLine(e.getProblem() != null ? e.getProblem() : e.getMessage())
                    + (e.getContext() != null ? " (" + oneLine(e.getContext()) + ")" : "")));
        } catch (YAMLException e) {
            diagnostics.add(Diagnostic.error(SourceLocation.file(path), "invalid YAML: " + oneLine(e.getMessage())));
        }
        return new YamlFile(path, contentId, docs, diagnostics);
    }

    static SourceLocation at(String path, Mark mark) {
        return new SourceLocation(path, mark.getLine() + 1, mark.getColumn() + 1);
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s+", " ").trim();
    }

    private static boolean isEmptyDocument(Node node) {
        return node instanceof ScalarNode s && s.getValue().isEmpty();
    }

    private static void checkDuplicateKeys(String path, Node node, List<Diagnostic> out) {
        if (node instanceof MappingNode m) {
            Map<String, Node> seen = new HashMap<>();
            for (NodeTuple t : m.getValue()) {
                if (t.getKeyNode() instanceof ScalarNode k) {
                    Node first = seen.putIfAbsent(k.getValue(), k);
                    if (first != null) {
                        out.add(Diagnostic.error(at(path, k.getStartMark()), "duplicate key '" + k.getValue()
                                + "' (first at line " + (first.getStartMark().getLine() + 1) + "); keep only one"));
                    }
                }
                checkDuplicateKeys(path, t.getValueNode(), out);
            }
        } else if (node instanceof SequenceNode s) {
            for (Node child : s.getValue()) checkDuplicateKeys(path, child, out);
        }
    }

    /** Turns a composed node into plain Java values with the safe constructor (no arbitrary types). */
    static final class Values extends SafeConstructor {
        Values(LoaderOptions options) {
            super(options);
            // Timestamps stay strings, as they do when Kubernetes reads YAML into JSON.
            this.yamlConstructors.put(org.yaml.snakeyaml.nodes.Tag.TIMESTAMP, new ConstructYamlStr());
        }

        Object of(Node node) { return freeze(constructDocument(node)); }

        /** Deep, unmodifiable copy with string keys (JSON objects only have string keys). */
        static Object freeze(Object v) {
            if (v instanceof Map<?, ?> m) {
                Map<String, Object> out = new java.util.LinkedHashMap<>();
                m.forEach((k, x) -> out.put(String.valueOf(k), freeze(x)));
                return java.util.Collections.unmodifiableMap(out);
            }
            if (v instanceof java.util.Collection<?> c) {
                List<Object> out = new ArrayList<>(c.size());
                for (Object x : c) out.add(freeze(x));
                return java.util.Collections.unmodifiableList(out);
            }
            return v;
        }
    }
}
