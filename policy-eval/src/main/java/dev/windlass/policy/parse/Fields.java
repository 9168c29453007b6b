package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.SourceLocation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Strict, typed reading of one YAML mapping. Each read marks the field as known; {@link #end()}
 * reports every field nobody read as unknown. Wrong types are reported at the value, with the
 * field's full name ({@code Application.spec.syncPolicy.prune}) and what to write instead.
 */
final class Fields {
    private final String file;
    private final String where;
    private final Node self;
    private final List<Diagnostic> out;
    private final Map<String, NodeTuple> entries = new LinkedHashMap<>();
    private final Set<String> known = new LinkedHashSet<>();

    private Fields(String file, String where, Node self, List<Diagnostic> out) {
        this.file = file;
        this.where = where;
        this.self = self;
        this.out = out;
        if (self instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                if (t.getKeyNode() instanceof ScalarNode k) entries.put(k.getValue(), t);
            }
        }
    }

    static Fields root(YamlDoc doc, String kind, List<Diagnostic> out) {
        return new Fields(doc.path(), kind, doc.node(), out);
    }

    SourceLocation at() { return YamlReader.at(file, self.getStartMark()); }

    /** The mapping read, as composed. */
    Node node() { return self; }

    SourceLocation at(String key) {
        NodeTuple t = entries.get(key);
        return t == null ? at() : YamlReader.at(file, t.getValueNode().getStartMark());
    }

    boolean has(String key) {
        known.add(key);
        NodeTuple t = entries.get(key);
        return t != null && !(t.getValueNode() instanceof ScalarNode s && s.getTag().equals(Tag.NULL));
    }

    String name(String key) { return where + "." + key; }

    /** How this mapping is named in messages, like {@code Application.spec.sources[1]}. */
    String where() { return where; }

    /** Every key of the mapping, in the order written (each still to be read). */
    List<String> keys() { return List.copyOf(entries.keySet()); }

    /** Whether the value at {@code key} is a mapping. */
    boolean isMapping(String key) { return has(key) && entries.get(key).getValueNode() instanceof MappingNode; }

    void error(String key, String message) { out.add(Diagnostic.error(at(key), message)); }

    /** An error at a place inside this mapping, such as an item of one of its lists. */
    void errorAt(SourceLocation at, String message) { out.add(Diagnostic.error(at, message)); }

    void errorHere(String message) { out.add(Diagnostic.error(at(), message)); }

    /** A problem that changes nothing: the value is still used (e.g. an old name of an enum value). */
    void warning(String key, String message) { out.add(Diagnostic.warning(at(key), message)); }

    String string(String key, String fallback) {
        if (!has(key)) return fallback;
        Node v = entries.get(key).getValueNode();
        if (v instanceof ScalarNode s && s.getTag().equals(Tag.STR)) return s.getValue();
        error(key, name(key) + " must be a string" + (v instanceof ScalarNode ? "; quote the value" : ""));
        return fallback;
    }

    String requiredString(String key) {
        if (!has(key)) {
            errorHere(name(key) + " is required");
            return null;
        }
        return string(key, null);
    }

    /** The text of a scalar value whatever its type (for fields that take a number or a string), or null. */
    String rawScalar(String key) {
        if (!has(key)) return null;
        return entries.get(key).getValueNode() instanceof ScalarNode s ? s.getValue() : null;
    }

    Tag scalarTag(String key) {
        return has(key) && entries.get(key).getValueNode() instanceof ScalarNode s ? s.getTag() : null;
    }

    boolean bool(String key, boolean fallback) {
        if (!has(key)) return fallback;
        Node v = entries.get(key).getValueNode();
        if (v instanceof ScalarNode s && s.getTag().equals(Tag.BOOL)) return Boolean.parseBoolean(s.getValue().toLowerCase());
        error(key, name(key) + " must be true or false");
        return fallback;
    }

    int integer(String key, int fallback, int min) {
        if (!has(key)) return fallback;
        Node v = entries.get(key).getValueNode();
        if (v instanceof ScalarNode s && s.getTag().equals(Tag.INT)) {
            try {
                int i = Integer.parseInt(s.getValue());
                if (i >= min) return i;
            } catch (NumberFormatException ignored) {
                // reported below
            }
        }
        error(key, name(key) + " must be a whole number of at least " + min);
        return fallback;
    }

    <E extends Enum<E>> E enumValue(String key, Class<E> type, E fallback) {
        String s = string(key, null);
        if (s == null) return fallback;
        for (E e : type.getEnumConstants()) if (e.name().equals(s)) return e;
        error(key, name(key) + " is " + Excerpt.quoted(s) + "; use one of " + names(type));
        return fallback;
    }

    static <E extends Enum<E>> String names(Class<E> type) {
        List<String> names = new ArrayList<>();
        for (E e : type.getEnumConstants()) names.add(e.name());
        return String.join(", ", names);
    }

    /** A nested mapping, or null when absent or not a mapping (reported). */
    Fields object(String key) {
        if (!has(key)) return null;
        Node v = entries.get(key).getValueNode();
        if (v instanceof MappingNode) return new Fields(file, name(key), v, out);
        error(key, name(key) + " must be a mapping (key: value)");
        return null;
    }

    List<Fields> objects(String key) {
        List<Fields> result = new ArrayList<>();
        for (Node item : sequence(key)) {
            if (item instanceof MappingNode) result.add(new Fields(file, name(key) + "[" + result.size() + "]", item, out));
            else out.add(Diagnostic.error(YamlReader.at(file, item.getStartMark()), name(key) + " items must be mappings"));
        }
        return result;
    }

    List<String> strings(String key) {
        List<String> result = new ArrayList<>();
        for (Node item : sequence(key)) {
            if (item instanceof ScalarNode s && s.getTag().equals(Tag.STR)) result.add(s.getValue());
            else out.add(Diagnostic.error(YamlReader.at(file, item.getStartMark()), name(key) + " items must be strings; quote them"));
        }
        return result;
    }

    /** A string-to-string mapping such as labels; non-string values are errors, as on the API server. */
    Map<String, String> stringMap(String key) {
        Map<String, String> result = new TreeMap<>();
        if (!has(key)) return result;
        Node v = entries.get(key).getValueNode();
        if (!(v instanceof MappingNode m)) {
            error(key, name(key) + " must be a mapping of strings");
            return result;
        }
        for (NodeTuple t : m.getValue()) {
            String k = ((ScalarNode) t.getKeyNode()).getValue();
            if (t.getValueNode() instanceof ScalarNode s && s.getTag().equals(Tag.STR)) result.put(k, s.getValue());
            else out.add(Diagnostic.error(YamlReader.at(file, t.getValueNode().getStartMark()),
                    name(key) + "." + k + " must be a string; quote the value (\"" + scalarText(t.getValueNode()) + "\")"));
        }
        return result;
    }

    private static String scalarText(Node n) { return n instanceof ScalarNode s ? s.getValue() : "..."; }

    /** Where each item of the list at {@code key} is written, in order (empty when there is no list). */
    List<SourceLocation> itemsAt(String key) {
        if (!has(key) || !(entries.get(key).getValueNode() instanceof SequenceNode s)) return List.of();
        return s.getValue().stream().map(n -> YamlReader.at(file, n.getStartMark())).toList();
    }

    private List<Node> sequence(String key) {
        if (!has(key)) return List.of();
        Node v = entries.get(key).getValueNode();
        if (v instanceof SequenceNode s) return s.getValue();
        error(key, name(key) + " must be a list");
        return List.of();
    }

    /** A mapping kept as YAML text, as written, for a tool to read (Helm values); "" when absent. */
    String mappingText(String key) {
        if (!has(key)) return "";
        Node v = entries.get(key).getValueNode();
        if (!(v instanceof MappingNode)) {
            error(key, name(key) + " must be a mapping (key: value)");
            return "";
        }
        return YamlText.of(v);
    }

    /** A list kept as YAML text, as written; "" when absent. */
    String sequenceText(String key) {
        if (!has(key)) return "";
        Node v = entries.get(key).getValueNode();
        if (!(v instanceof SequenceNode)) {
            error(key, name(key) + " must be a list");
            return "";
        }
        return YamlText.of(v);
    }

    /** Reports every field that no read asked for. */
    void end() {
        for (var e : entries.entrySet()) {
            if (!known.contains(e.getKey())) {
                out.add(Diagnostic.error(YamlReader.at(file, e.getValue().getKeyNode().getStartMark()),
                        "unknown field " + Excerpt.quoted(e.getKey()) + " in " + where + "; known fields: " + String.join(", ", known)));
            }
        }
    }
}
