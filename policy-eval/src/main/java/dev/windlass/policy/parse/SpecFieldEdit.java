package dev.windlass.policy.parse;

import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * Sets, replaces or removes one scalar field directly under {@code spec} of a Windlass object in its file
 * (such as {@code suspend: true}), editing only that line so comments, order and style stay as written.
 * Only block style can be edited line by line; flow style ({@code spec: {...}}) is refused rather than
 * rewritten. The sibling of {@link AnnotationEdit}, for commands that write to the config repo.
 */
public final class SpecFieldEdit {
    private SpecFieldEdit() {}

    /** The edited file, or the reason it cannot be edited safely. */
    public record Outcome(String text, String problem) {
        public boolean ok() { return problem == null; }
    }

    /** Sets {@code spec.<field>} to {@code scalar}, written as given (e.g. {@code true}); a value already there is replaced in place. */
    public static Outcome set(String text, String kind, String name, String field, String scalar) {
        return edit(text, kind, name, field, scalar);
    }

    /** Removes the line of {@code spec.<field>}; a file without it is returned unchanged. */
    public static Outcome remove(String text, String kind, String name, String field) {
        return edit(text, kind, name, field, null);
    }

    private static Outcome edit(String text, String kind, String name, String field, String scalar) {
        MappingNode doc = YamlLines.object(text, kind, name);
        if (doc == null) return new Outcome(null, "no " + kind + " named " + name + " in this file");
        if (!(YamlLines.get(doc, "spec") instanceof MappingNode spec) || spec.getValue().isEmpty()) {
            return new Outcome(null, kind + " " + name + " has no spec to edit");
        }
        if (doc.getFlowStyle() == DumperOptions.FlowStyle.FLOW || spec.getFlowStyle() == DumperOptions.FlowStyle.FLOW) {
            return new Outcome(null, "spec of " + kind + " " + name + " is written in flow style ({...}); write it as a block to let Windlass edit it");
        }
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        NodeTuple entry = YamlLines.tuple(spec, field);
        if (entry == null) {
            if (scalar == null) return new Outcome(text, null);
            int at = YamlLines.lastContentLine(lines, YamlLines.lastLineOf(spec));
            lines.add(at + 1, YamlLines.indent(spec.getValue().get(0).getKeyNode()) + field + ": " + scalar);
            return new Outcome(String.join("\n", lines), null);
        }
        if (!(entry.getValueNode() instanceof ScalarNode value)) {
            return new Outcome(null, "spec." + field + " of " + kind + " " + name + " is not a single value; edit it by hand");
        }
        int keyLine = entry.getKeyNode().getStartMark().getLine();
        // An empty value ("suspend:") has its marks at the next token, possibly lines further on.
        boolean empty = value.getValue().isEmpty() && value.getScalarStyle() == DumperOptions.ScalarStyle.PLAIN;
        int lastLine = empty ? keyLine : YamlLines.lastLineOf(value);
        if (scalar == null) {
            if (spec.getValue().size() == 1) {
                return new Outcome(null, "spec." + field + " is the only field in the spec of " + kind + " " + name + "; removing it would leave the spec empty");
            }
            for (int i = lastLine; i >= keyLine; i--) lines.remove(keyLine);
            return new Outcome(String.join("\n", lines), null);
        }
        int valueLine = value.getStartMark().getLine();
        if (!empty && valueLine == value.getEndMark().getLine()) {
            // Only the value's characters change, so a comment after it stays.
            String line = lines.get(valueLine);
            lines.set(valueLine, line.substring(0, value.getStartMark().getColumn()) + scalar + line.substring(value.getEndMark().getColumn()));
        } else {
            for (int i = lastLine; i >= keyLine; i--) lines.remove(keyLine);
            lines.add(keyLine, YamlLines.indent(entry.getKeyNode()) + field + ": " + scalar);
        }
        return new Outcome(String.join("\n", lines), null);
    }






}
