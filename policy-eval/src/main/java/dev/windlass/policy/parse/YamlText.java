package dev.windlass.policy.parse;

import java.io.StringWriter;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.Node;

/** A part of a document written back out as YAML text, as it was read: for values handed on to a tool. */
final class YamlText {
    private YamlText() {}

    static String of(Node node) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        StringWriter out = new StringWriter();
        new Yaml(options).serialize(node, out);
        return out.toString();
    }
}
