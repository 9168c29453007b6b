package dev.windlass.policy.parse;

import java.util.List;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/** What line-preserving edits of a YAML file need: finding an object's document, and the lines its nodes span. */
final class YamlLines {
    private YamlLines() {}

    /**
     * The document of the Windlass object {@code kind}/{@code name} in a (possibly multi-document) file, or null. A later
     * document that cannot be read (invalid, or over a limit) leaves what was found before it.
     */
    static MappingNode object(String text, String kind, String name) {
        MappingNode found = null;
        Composer composer = YamlReader.composer(YamlReader.events(text));
        try {
            while (composer.checkNode()) {
                Node d = composer.getNode();
                if (d instanceof MappingNode m && kind.equals(scalar(m, "kind")) && get(m, "metadata") instanceof MappingNode meta
                        && name.equals(scalar(meta, "name"))) {
                    found = m;
                }
            }
        } catch (YAMLException | IllegalArgumentException e) {
            // RepoParser reports it; the edit is of a document before it. (IllegalArgumentException: a tag whose
            // %-escapes stand for a space at its start or end, `!a%20 x`, which SnakeYAML's Tag refuses.)
        }
        return found;
    }

    /** The last line a node's text is on (a block collection's end mark sits on the next key's line, so ask its last child). */
    static int lastLineOf(Node node) {
        if (node instanceof MappingNode m && m.getFlowStyle() != DumperOptions.FlowStyle.FLOW && !m.getValue().isEmpty()) {
            return lastLineOf(m.getValue().get(m.getValue().size() - 1).getValueNode());
        }
        if (node instanceof SequenceNode q && q.getFlowStyle() != DumperOptions.FlowStyle.FLOW && !q.getValue().isEmpty()) {
            return lastLineOf(q.getValue().get(q.getValue().size() - 1));
        }
        var end = node.getEndMark();
        return end.getColumn() == 0 ? end.getLine() - 1 : end.getLine();
    }

    /** The last line at or before {@code line} that holds something. */
    static int lastContentLine(List<String> lines, int line) {
        int i = Math.min(line, lines.size() - 1);
        while (i > 0 && lines.get(i).isBlank()) i--;
        return i;
    }

    static String indent(Node key) { return " ".repeat(key.getStartMark().getColumn()); }

    static NodeTuple tuple(MappingNode m, String key) {
        for (NodeTuple t : m.getValue()) if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) return t;
        return null;
    }

    static Node get(MappingNode m, String key) {
        NodeTuple t = tuple(m, key);
        return t == null ? null : t.getValueNode();
    }

    static String scalar(MappingNode m, String key) {
        return get(m, key) instanceof ScalarNode s ? s.getValue() : null;
    }
}
