package dev.windlass.policy.parse;

import java.util.function.Supplier;
import org.yaml.snakeyaml.nodes.Node;

/**
 * A document's composed node tree, which errors use to point at the exact key or value. It is many times the size of
 * the document's text (every key and value is a node with two marks), and a document that reads without an error never
 * needs it again, so a parsed file does not keep it: the tree is composed again from the file's text when asked for
 * (which gives the same tree), then kept until {@link #release} lets it go.
 */
public final class DocTree {
    private final Supplier<Node> compose;
    private volatile Node node;
    /** Once let go, the document was read: a sibling's reading of the file gives it no tree back. */
    private volatile boolean released;

    private DocTree(Node node, Supplier<Node> compose) {
        this.node = node;
        this.compose = compose;
    }

    /** A tree composed from text by {@code compose} when it is first asked for. */
    static DocTree composedWhenAsked(Supplier<Node> compose) { return new DocTree(null, compose); }

    /** A tree made in memory (no text to compose it from), kept as long as its document. */
    static DocTree kept(Node node) { return new DocTree(node, null); }

    /**
     * The tree. Two threads asking at once may each compose it; both get the same shape, and each goes on with its own.
     */
    Node node() {
        Node n = node;
        if (n == null) {
            n = compose.get();
            node = n;
        }
        return n;
    }

    /** The tree held, or one composed for this call only and not kept (to take a part of it, as a list's item). */
    Node heldOrComposed() {
        Node n = node;
        return n != null ? n : compose.get();
    }

    /**
     * Gives the tree composed for a sibling in the same reading of the file, if none is held and none was let go (a
     * document already read would keep a tree it does not need).
     */
    void offer(Node composed) {
        if (node == null && compose != null && !released) node = composed;
    }

    /** Lets the tree go, when it can be composed again; the next {@link #node()} does that. */
    void release() {
        if (compose == null) return;
        released = true;
        node = null;
    }
}
