package dev.windlass.policy.parse;

import dev.windlass.policy.model.SourceLocation;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/** Where a field of a document is written, for errors that concern a whole object (its name, its selector). */
final class DocPositions {
    private DocPositions() {}

    /**
     * The position of the value at {@code keys} (such as {@code spec, selector}, or {@code spec, groups, 0} for the first
     * item of a list); when part of the path is missing,
     * the position of the deepest part that is there (the document itself at worst).
     */
    static SourceLocation at(YamlDoc doc, String... keys) {
        Node node = doc.node();
        for (String key : keys) {
            Node next = child(node, key);
            if (next == null) break;
            node = next;
        }
        return YamlReader.at(doc.path(), node.getStartMark());
    }

    /** The position of {@code metadata.name}. */
    static SourceLocation nameAt(YamlDoc doc) { return at(doc, "metadata", "name"); }

    /** {@code metadata.name} when it is a string, else null. */
    static String name(YamlDoc doc) {
        return doc.value().get("metadata") instanceof java.util.Map<?, ?> m && m.get("name") instanceof String s ? s : null;
    }

    /**
     * The keys leading to the field whose key or value starts at {@code at} in {@code doc} (list items by index), or an
     * empty list when none does: how a position in one text of an object is found again in another.
     */
    static java.util.List<String> keysAt(YamlDoc doc, SourceLocation at) {
        java.util.List<String> path = new java.util.ArrayList<>();
        return find(doc.node(), at, path) ? path : java.util.List.of();
    }

    /** The position of the key of the field at {@code keys}, or of its value ({@link #at}) when it is not all written. */
    static SourceLocation keyAt(YamlDoc doc, java.util.List<String> keys) {
        if (keys.isEmpty() || depth(doc, keys) < keys.size()) return at(doc, keys.toArray(String[]::new));
        Node parent = doc.node();
        for (String key : keys.subList(0, keys.size() - 1)) parent = child(parent, key);
        if (parent instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(keys.get(keys.size() - 1))) {
                    return YamlReader.at(doc.path(), t.getKeyNode().getStartMark());
                }
            }
        }
        return at(doc, keys.toArray(String[]::new));
    }

    /** How many of {@code keys}, from the first, are written in {@code doc}. */
    static int depth(YamlDoc doc, java.util.List<String> keys) {
        Node node = doc.node();
        int n = 0;
        for (String key : keys) {
            node = child(node, key);
            if (node == null) break;
            n++;
        }
        return n;
    }

    private static boolean find(Node node, SourceLocation at, java.util.List<String> path) {
        if (node instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                if (!(t.getKeyNode() instanceof ScalarNode k)) continue;
                path.add(k.getValue());
                if (starts(t.getKeyNode(), at) || starts(t.getValueNode(), at) || find(t.getValueNode(), at, path)) return true;
                path.remove(path.size() - 1);
            }
        } else if (node instanceof SequenceNode s) {
            for (int i = 0; i < s.getValue().size(); i++) {
                path.add(String.valueOf(i));
                if (starts(s.getValue().get(i), at) || find(s.getValue().get(i), at, path)) return true;
                path.remove(path.size() - 1);
            }
        }
        return false;
    }

    private static boolean starts(Node node, SourceLocation at) {
        return node.getStartMark().getLine() + 1 == at.line() && node.getStartMark().getColumn() + 1 == at.column();
    }

    private static Node child(Node node, String key) {
        if (node instanceof SequenceNode s) {
            int i = key.chars().allMatch(Character::isDigit) ? Integer.parseInt(key) : -1;
            return i >= 0 && i < s.getValue().size() ? s.getValue().get(i) : null;
        }
        if (!(node instanceof MappingNode m)) return null;
        for (NodeTuple t : m.getValue()) {
            if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) return t.getValueNode();
        }
        return null;
    }
}
