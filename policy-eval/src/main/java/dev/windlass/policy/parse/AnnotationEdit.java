package dev.windlass.policy.parse;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * Sets or removes one annotation of a Windlass object in its file, editing only the lines concerned so
 * the rest of the file (comments, order, style) stays as its authors wrote it. Used by commands that
 * write to the config repo on an operator's behalf.
 */
public final class AnnotationEdit {
    private AnnotationEdit() {}

    /** The edited file, or the reason it cannot be edited safely. */
    public record Outcome(String text, String problem) {
        public boolean ok() { return problem == null; }
    }

    public static Outcome set(String text, String kind, String name, String key, String value) {
        return edit(text, kind, name, key, value);
    }

    public static Outcome remove(String text, String kind, String name, String key) {
        return edit(text, kind, name, key, null);
    }

    private static Outcome edit(String text, String kind, String name, String key, String value) {
        MappingNode metadata = null;
        for (Node doc : new Yaml(YamlReader.options()).composeAll(new StringReader(text))) {
            if (doc instanceof MappingNode m && kind.equals(scalar(m, "kind")) && get(m, "metadata") instanceof MappingNode meta
                    && name.equals(scalar(meta, "name"))) {
                metadata = meta;
            }
        }
        if (metadata == null) return new Outcome(null, "no " + kind + " named " + name + " in this file");
        if (metadata.getFlowStyle() == DumperOptions.FlowStyle.FLOW) {
            return new Outcome(null, "metadata of " + kind + " " + name + " is written in flow style ({...}); write it as a block to let Windlass edit it");
        }
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        Node annotations = get(metadata, "annotations");
        String entry = quote(key) + ": " + (value == null ? "" : quote(value));
        if (annotations instanceof MappingNode a && a.getFlowStyle() != DumperOptions.FlowStyle.FLOW) {
            for (NodeTuple t : a.getValue()) {
                if (key.equals(((ScalarNode) t.getKeyNode()).getValue())) {
                    int line = t.getKeyNode().getStartMark().getLine();
                    int end = lastLineOf(t.getValueNode());
                    for (int i = end; i >= line; i--) lines.remove(line);
                    if (value != null) lines.add(line, indent(t.getKeyNode()) + entry);
                    else if (a.getValue().size() == 1) lines.remove(annotationsLine(lines, a));
                    return new Outcome(String.join("\n", lines), null);
                }
            }
            if (value == null) return new Outcome(text, null);
            int at = lastContentLine(lines, lastLineOf(a));
            lines.add(at + 1, indent(a.getValue().get(0).getKeyNode()) + entry);
            return new Outcome(String.join("\n", lines), null);
        }
        if (annotations != null) {
            return new Outcome(null, "annotations of " + kind + " " + name + " are written in flow style ({...}); write them as a block to let Windlass edit them");
        }
        if (value == null) return new Outcome(text, null);
        Node firstKey = metadata.getValue().get(0).getKeyNode();
        String pad = indent(firstKey);
        int lastLine = lastContentLine(lines, lastLineOf(metadata));
        lines.add(lastLine + 1, pad + "annotations:");
        lines.add(lastLine + 2, pad + "  " + entry);
        return new Outcome(String.join("\n", lines), null);
    }

    /** The line of {@code annotations:} itself (the mapping's key sits on the line before its first entry). */
    private static int annotationsLine(List<String> lines, MappingNode a) {
        int line = a.getStartMark().getLine() - 1;
        while (line > 0 && !lines.get(line).trim().startsWith("annotations:")) line--;
        return line;
    }

    /** The last line a node's text is on (a block collection's end mark sits on the next key's line, so ask its last child). */
    private static int lastLineOf(Node node) {
        if (node instanceof MappingNode m && m.getFlowStyle() != DumperOptions.FlowStyle.FLOW && !m.getValue().isEmpty()) {
            return lastLineOf(m.getValue().get(m.getValue().size() - 1).getValueNode());
        }
        if (node instanceof org.yaml.snakeyaml.nodes.SequenceNode q && q.getFlowStyle() != DumperOptions.FlowStyle.FLOW && !q.getValue().isEmpty()) {
            return lastLineOf(q.getValue().get(q.getValue().size() - 1));
        }
        var end = node.getEndMark();
        return end.getColumn() == 0 ? end.getLine() - 1 : end.getLine();
    }

    /** The last line at or before {@code line} that holds something. */
    private static int lastContentLine(List<String> lines, int line) {
        int i = Math.min(line, lines.size() - 1);
        while (i > 0 && lines.get(i).isBlank()) i--;
        return i;
    }

    private static String indent(Node key) { return " ".repeat(key.getStartMark().getColumn()); }

    private static String quote(String s) { return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\""; }

    private static Node get(MappingNode m, String key) {
        for (NodeTuple t : m.getValue()) if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) return t.getValueNode();
        return null;
    }

    private static String scalar(MappingNode m, String key) {
        return get(m, key) instanceof ScalarNode s ? s.getValue() : null;
    }
}
