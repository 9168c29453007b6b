package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;
import dev.windlass.policy.kube.NameFormats;
import dev.windlass.policy.kube.NameRule;
import dev.windlass.policy.model.Diagnostic;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * A manifest's metadata checked as the API server will check it (the rules of {@code policy.kube}, the same the sandbox
 * refuses by): the name in the format of its kind, the namespace, label keys and values, annotation keys and the size of
 * all annotations. Each problem is an error at its own {@code path:line:col}, in the server's words, before anything is
 * planned: the application is held instead of failing at apply time. Values are quoted only where they are names,
 * label keys or label values, never annotation values.
 */
final class MetadataRules {
    static final int ANNOTATIONS_MAX_BYTES = 256 * 1024;

    private static final List<String> METADATA = List.of("metadata");
    private static final List<String> LABELS = List.of("metadata", "labels");
    private static final List<String> ANNOTATIONS = List.of("metadata", "annotations");

    private MetadataRules() {}

    static List<Diagnostic> check(YamlDoc doc, String group, String kind, String name, String namespace) {
        return check(doc, group, kind, name, namespace, false);
    }

    /** @param generated {@code name} is the object's generateName: the server adds a random suffix to it */
    static List<Diagnostic> check(YamlDoc doc, String group, String kind, String name, String namespace, boolean generated) {
        List<Diagnostic> out = new ArrayList<>();
        for (String problem : generated ? NameRule.of(group, kind).check(name, true) : NameRule.problems(group, kind, name)) {
            out.add(Diagnostic.error(at(doc, METADATA, generated ? "generateName" : "name"), kind + (generated ? " generateName " : " name ")
                    + Excerpt.quoted(name) + " is invalid: " + problem));
        }
        if (namespace != null) {
            for (String problem : NameFormats.dns1123Label(namespace)) {
                out.add(Diagnostic.error(at(doc, METADATA, "namespace"), kind + " " + name + ": namespace " + Excerpt.quoted(namespace) + " is invalid: " + problem));
            }
        }
        Map<?, ?> meta = doc.value().get("metadata") instanceof Map<?, ?> m ? m : Map.of();
        if (meta.get("labels") instanceof Map<?, ?> labels) {
            for (Map.Entry<?, ?> label : labels.entrySet()) {
                String key = String.valueOf(label.getKey());
                String value = label.getValue() == null ? "" : String.valueOf(label.getValue());
                for (String problem : NameFormats.qualifiedName(key)) {
                    out.add(Diagnostic.error(atKey(doc, LABELS, key), kind + " " + name + ": label key " + Excerpt.quoted(key) + " is invalid: " + problem));
                }
                for (String problem : NameFormats.labelValue(value)) {
                    out.add(Diagnostic.error(at(doc, LABELS, key), kind + " " + name + ": label " + key + " value " + Excerpt.quoted(value) + " is invalid: "
                            + problem));
                }
            }
        }
        if (meta.get("annotations") instanceof Map<?, ?> annotations) {
            long bytes = 0;
            for (Map.Entry<?, ?> annotation : annotations.entrySet()) {
                String key = String.valueOf(annotation.getKey());
                for (String problem : NameFormats.qualifiedName(key.toLowerCase(Locale.ROOT))) {
                    out.add(Diagnostic.error(atKey(doc, ANNOTATIONS, key), kind + " " + name + ": annotation key " + Excerpt.quoted(key) + " is invalid: " + problem));
                }
                bytes += NameFormats.utf8Length(key) + NameFormats.utf8Length(annotation.getValue() == null ? "" : String.valueOf(annotation.getValue()));
            }
            if (bytes > ANNOTATIONS_MAX_BYTES) {
                out.add(Diagnostic.error(at(doc, METADATA, "annotations"), kind + " " + name + ": its annotations take " + bytes
                        + " bytes, over the API server's limit of " + ANNOTATIONS_MAX_BYTES + "; move large values into a ConfigMap"));
            }
        }
        return out;
    }

    private static Node child(Node node, String key) {
        if (!(node instanceof MappingNode m)) return null;
        for (NodeTuple t : m.getValue()) {
            if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) return t.getValueNode();
        }
        return null;
    }

    /**
     * The node at {@code path} from the document's root, or null. Asked only to place an error: a document that reads
     * without one never needs its node tree (which {@link DocTree} then composes again from the text).
     */
    private static Node parent(YamlDoc doc, List<String> path) {
        Node node = doc.node();
        for (String key : path) node = child(node, key);
        return node;
    }

    /** Where the key {@code key} under {@code path} itself is written, or the document when it cannot be found. */
    private static dev.windlass.policy.model.SourceLocation atKey(YamlDoc doc, List<String> path, String key) {
        if (parent(doc, path) instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) return YamlReader.at(doc.path(), k.getStartMark());
            }
        }
        return doc.location();
    }

    /** Where the value of {@code key} under {@code path} is written, or the document when it cannot be found. */
    private static dev.windlass.policy.model.SourceLocation at(YamlDoc doc, List<String> path, String key) {
        if (parent(doc, path) instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) return YamlReader.at(doc.path(), t.getValueNode().getStartMark());
            }
        }
        return doc.location();
    }
}
