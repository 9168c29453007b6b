package dev.windlass.policy.parse;

import dev.windlass.policy.model.SourceLocation;
import java.util.Map;
import org.yaml.snakeyaml.nodes.Node;

/**
 * One YAML document of a file.
 *
 * @param node  the composed node tree, kept so errors can point at the exact key or value
 * @param value the same document as plain maps, lists and scalars
 */
public record YamlDoc(String path, int index, Node node, Map<String, Object> value, SourceLocation location) {

    public String apiVersion() { return value.get("apiVersion") instanceof String s ? s : ""; }

    public String kind() { return value.get("kind") instanceof String s ? s : ""; }

    public boolean isWindlass() { return apiVersion().startsWith("windlass.dev/"); }
}
