package dev.windlass.policy.parse;

import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.DumperOptions;
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
        MappingNode doc = YamlLines.object(text, kind, name);
        MappingNode metadata = doc == null ? null : (MappingNode) YamlLines.get(doc, "metadata");
        if (metadata == null) return new Outcome(null, "no " + kind + " named " + name + " in this file");
        if (metadata.getFlowStyle() == DumperOptions.FlowStyle.FLOW) {
            return new Outcome(null, "metadata of " + kind + " " + name + " is written in flow style ({...}); write it as a block to let Windlass edit it");
        }
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        Node annotations = YamlLines.get(metadata, "annotations");
        String entry = quote(key) + ": " + (value == null ? "" : quote(value));
        if (annotations instanceof MappingNode a && a.getFlowStyle() != DumperOptions.FlowStyle.FLOW) {
            for (NodeTuple t : a.getValue()) {
                if (key.equals(((ScalarNode) t.getKeyNode()).getValue())) {
                    int line = t.getKeyNode().getStartMark().getLine();
                    int end = YamlLines.lastLineOf(t.getValueNode());
                    for (int i = end; i >= line; i--) lines.remove(line);
                    if (value != null) lines.add(line, YamlLines.indent(t.getKeyNode()) + entry);
                    else if (a.getValue().size() == 1) lines.remove(annotationsLine(lines, a));
                    return new Outcome(String.join("\n", lines), null);
                }
            }
            if (value == null) return new Outcome(text, null);
            int at = YamlLines.lastContentLine(lines, YamlLines.lastLineOf(a));
            lines.add(at + 1, YamlLines.indent(a.getValue().get(0).getKeyNode()) + entry);
            return new Outcome(String.join("\n", lines), null);
        }
        if (annotations != null) {
            return new Outcome(null, "annotations of " + kind + " " + name + " are written in flow style ({...}); write them as a block to let Windlass edit them");
        }
        if (value == null) return new Outcome(text, null);
        Node firstKey = metadata.getValue().get(0).getKeyNode();
        String pad = YamlLines.indent(firstKey);
        int lastLine = YamlLines.lastContentLine(lines, YamlLines.lastLineOf(metadata));
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




    private static String quote(String s) { return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\""; }


}
