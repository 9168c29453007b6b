package dev.windlass.policy.parse;

import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.SourceLocation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Expands a document of kind {@code List} or {@code <Kind>List} into one document per item, as {@code kubectl apply}
 * does. Generated manifests (kube-prometheus's, the output of {@code kubectl get -o yaml}) hold several objects in one
 * such list; the list itself is not an object and is never sent to a cluster. Each item keeps its own node, so what is
 * said about it points at the item, not at the list.
 */
final class ListItems {
    private ListItems() {}

    /**
     * Whether a document is a list to expand: its kind is {@code List} or ends in {@code List}, it has an {@code items}
     * sequence, and no {@code metadata.name}. A named object whose kind happens to end in {@code List} stays an object.
     */
    static boolean isList(Map<?, ?> value) {
        return value.get("kind") instanceof String kind && kind.endsWith("List")
                && value.get("items") instanceof List<?>
                && !(value.get("metadata") instanceof Map<?, ?> metadata && metadata.get("name") != null);
    }

    /**
     * The objects a document holds: the document itself, or each item of a list, in order. An item that cannot be an
     * object here (not a mapping, a list itself, a Windlass object) is said in {@code out} at its own position and left
     * out; whether an item has what every object needs is for {@link ManifestReader}, as for any document.
     */
    @SuppressWarnings("unchecked")
    static List<YamlDoc> of(YamlDoc doc, List<Diagnostic> out) {
        if (!isList(doc.value())) return List.of(doc);
        String listKind = (String) doc.value().get("kind");
        List<?> values = (List<?>) doc.value().get("items");
        List<Node> nodes = itemNodes(doc.node());
        List<YamlDoc> items = new ArrayList<>(values.size());
        for (int i = 0; i < values.size(); i++) {
            // The node list matches the values one for one; the list's own node is only a fallback for input built otherwise.
            Node node = i < nodes.size() ? nodes.get(i) : doc.node();
            SourceLocation at = YamlReader.at(doc.path(), node.getStartMark());
            String item = "item " + (i + 1) + " of " + listKind;
            if (!(values.get(i) instanceof Map<?, ?> value)) {
                out.add(Diagnostic.error(at, item + " is not a mapping; each item must be a Kubernetes object with apiVersion, kind and metadata.name"));
            } else if (isList(value)) {
                out.add(Diagnostic.error(at, item + " is itself a list (" + value.get("kind") + "); lists do not nest: move its items up into "
                        + listKind + "'s items, or make it a document of its own (---)"));
            } else if (value.get("apiVersion") instanceof String apiVersion && apiVersion.startsWith("windlass.dev/")) {
                out.add(Diagnostic.error(at, item + " is a Windlass " + value.get("kind") + "; Windlass objects are read only as documents of their own: "
                        + "move it out of the list into its own document (---)"));
            } else {
                int index = i;
                DocTree tree = i < nodes.size() ? DocTree.composedWhenAsked(() -> itemNodes(doc.tree().heldOrComposed()).get(index)) : doc.tree();
                items.add(new YamlDoc(doc.path(), doc.index(), tree, (Map<String, Object>) value, at));
            }
        }
        return items;
    }

    private static List<Node> itemNodes(Node list) {
        return list instanceof MappingNode m && YamlLines.get(m, "items") instanceof SequenceNode s ? s.getValue() : List.of();
    }
}
