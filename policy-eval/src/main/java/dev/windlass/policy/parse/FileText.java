package dev.windlass.policy.parse;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.Node;

/**
 * The text of a file read without error, kept (it is small beside its node trees) so its documents' trees can be composed
 * again: one reading composes every document, and each document that has not been read yet is given its tree.
 */
final class FileText {
    private final String path;
    private final String text;
    private final Map<Integer, DocTree> trees = new HashMap<>();

    FileText(String path, String text) {
        this.path = path;
        this.text = text;
    }

    /** The tree of the document at {@code index}, composed when first asked for. */
    DocTree tree(int index) {
        DocTree tree = DocTree.composedWhenAsked(() -> compose(index));
        trees.put(index, tree);
        return tree;
    }

    private Node compose(int index) {
        List<Node> all = new ArrayList<>();
        YamlReader.composeAgain(path, text, all);
        if (index >= all.size() || all.get(index) == null) {
            throw new IllegalStateException(path + ": document " + (index + 1) + " is not there when the file is composed again");
        }
        trees.forEach((i, tree) -> {
            if (i != index && i < all.size() && all.get(i) != null) tree.offer(all.get(i));
        });
        return all.get(index);
    }
}
