package dev.windlass.policy.parse;

import dev.windlass.policy.model.SourceLocation;
import java.util.Map;
import org.yaml.snakeyaml.nodes.Node;

/**
 * One YAML document of a file.
 *
 * @param tree  the composed node tree, so errors can point at the exact key or value ({@link #node()})
 * @param value the same document as plain maps, lists and scalars
 */
public record YamlDoc(String path, int index, DocTree tree, Map<String, Object> value, SourceLocation location) {

    /** The composed node tree, composed again from the file's text if it was let go. */
    public Node node() { return tree.node(); }

    public String apiVersion() { return value.get("apiVersion") instanceof String s ? s : ""; }

    public String kind() { return value.get("kind") instanceof String s ? s : ""; }

    public boolean isWindlass() { return apiVersion().startsWith("windlass.dev/"); }
}
