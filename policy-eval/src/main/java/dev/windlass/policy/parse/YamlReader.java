package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.SourceLocation;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.constructor.DuplicateKeyException;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.ReaderException;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Reads one YAML file into documents, keeping positions. Limits guard against hostile input (alias bombs, recursive
 * aliases, deep nesting, huge scalars and files; see {@link YamlLimits}), and every problem, limits included, is a
 * diagnostic at its place, never an exception. Duplicate keys are errors, because silently keeping the last one hides
 * mistakes.
 */
public final class YamlReader {

    private YamlReader() {}

    static LoaderOptions options() {
        LoaderOptions o = new LoaderOptions();
        o.setAllowDuplicateKeys(false);
        o.setAllowRecursiveKeys(false);
        // Backstops: LimitedEvents counts the same first, and says where.
        o.setMaxAliasesForCollections(YamlLimits.MAX_COLLECTION_ALIASES);
        o.setNestingDepthLimit(YamlLimits.MAX_DEPTH);
        o.setCodePointLimit(YamlLimits.MAX_FILE_BYTES);
        return o;
    }

    /** The events of {@code text}, counted against the limits as they are composed. */
    static LimitedEvents events(String text) {
        return new LimitedEvents(new ParserImpl(new TabTolerantReader(text), options()));
    }

    static Composer composer(LimitedEvents events) {
        return new Composer(events, new Resolver(), options());
    }

    public static YamlFile read(String path, String contentId, byte[] bytes) {
        List<Diagnostic> diagnostics = new ArrayList<>();
        if (bytes.length > YamlLimits.MAX_FILE_BYTES) {
            diagnostics.add(Diagnostic.error(SourceLocation.file(path),
                    "file is " + bytes.length + " bytes, over the " + YamlLimits.MAX_FILE_BYTES + " byte limit; split it into smaller files"));
            return new YamlFile(path, contentId, List.of(), diagnostics);
        }
        String text = utf8(path, bytes, diagnostics);
        if (text == null) return new YamlFile(path, contentId, List.of(), diagnostics);
        Values values = new Values(options());
        List<YamlDoc> docs = new ArrayList<>();
        FileText file = new FileText(path, text);
        compose(path, text, diagnostics, (docIndex, node) -> {
            SourceLocation at = at(path, node.getStartMark());
            if (isEmptyDocument(node)) return true;
            if (!(node instanceof MappingNode)) {
                diagnostics.add(Diagnostic.error(at, "document " + (docIndex + 1) + " is not a mapping; each document must be a Kubernetes-style object with apiVersion and kind"));
                return true;
            }
            int before = diagnostics.size();
            checkDuplicateKeys(path, node, diagnostics);
            if (diagnostics.size() > before) return true;
            @SuppressWarnings("unchecked")
            Map<String, Object> value = (Map<String, Object>) values.of(node);
            // The tree is let go here, while it is young: composed again only if something must be placed in it.
            docs.add(new YamlDoc(path, docIndex, file.tree(docIndex), value, at));
            return true;
        });
        return new YamlFile(path, contentId, docs, diagnostics);
    }

    /** Every document of a text read before without error, composed again, by index (null where there was none). */
    static void composeAgain(String path, String text, List<Node> out) {
        List<Diagnostic> none = new ArrayList<>();
        compose(path, text, none, (i, node) -> {
            while (out.size() < i) out.add(null);
            out.add(node);
            return true;
        });
    }

    /** {@code bytes} as UTF-8 text; null, with an error at the file, when they are not valid UTF-8. */
    private static String utf8(String path, byte[] bytes, List<Diagnostic> diagnostics) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            diagnostics.add(Diagnostic.error(SourceLocation.file(path), "file is not valid UTF-8; save it as UTF-8"));
            return null;
        }
    }

    /** What is done with each composed document of a file: its index and node; false stops the reading. */
    interface EachDocument {
        boolean take(int index, Node node);
    }

    /**
     * The first document of {@code bytes}, composed within the limits, with its duplicate keys checked; null (and a
     * diagnostic at its place) when it cannot be read, or an empty scalar when the file holds nothing.
     */
    static Node firstDocument(String path, byte[] bytes, int maxBytes, List<Diagnostic> diagnostics) {
        if (bytes.length > maxBytes) {
            diagnostics.add(Diagnostic.error(SourceLocation.file(path), "file is " + bytes.length + " bytes, over the " + maxBytes
                    + " byte limit; make it smaller"));
            return null;
        }
        String text = utf8(path, bytes, diagnostics);
        if (text == null) return null;
        Node[] first = new Node[1];
        int before = diagnostics.size();
        compose(path, text, diagnostics, (index, node) -> {
            first[0] = node;
            return false;
        });
        if (diagnostics.size() > before) return null;
        if (first[0] == null) return new ScalarNode(org.yaml.snakeyaml.nodes.Tag.NULL, "", null, null, org.yaml.snakeyaml.DumperOptions.ScalarStyle.PLAIN);
        checkDuplicateKeys(path, first[0], diagnostics);
        return diagnostics.size() > before ? null : first[0];
    }

    /** Composes each document of {@code text} in turn; what cannot be read is a diagnostic at its place and ends the reading. */
    private static void compose(String path, String text, List<Diagnostic> diagnostics, EachDocument each) {
        LimitedEvents events = events(text);
        Composer composer = composer(events);
        try {
            int index = 0;
            while (composer.checkNode()) {
                Node node = composer.getNode();
                int docIndex = index++;
                if (node == null) continue;
                if (!each.take(docIndex, node)) return;
            }
        } catch (LimitedEvents.Exceeded e) {
            diagnostics.add(Diagnostic.error(at(path, text, e.mark), e.getMessage()));
        } catch (DuplicateKeyException e) {
            // A key that is a list or mapping; SnakeYAML's message would print all of it.
            diagnostics.add(Diagnostic.error(at(path, text, e.getProblemMark()), "duplicate key (a list or mapping used as a key twice); keep only one"));
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            SourceLocation at = mark != null ? at(path, text, mark) : SourceLocation.file(path);
            diagnostics.add(Diagnostic.error(at, "invalid YAML: " + Excerpt.words(e.getProblem() != null ? e.getProblem() : "cannot be read")
                    + (e.getContext() != null ? " (" + Excerpt.words(e.getContext()) + ")" : "")));
        } catch (ReaderException e) {
            diagnostics.add(Diagnostic.error(at(path, text, e.getPosition()), "invalid YAML: the file holds a control character (code "
                    + e.getCodePoint() + ") that YAML does not allow; remove it"));
        } catch (YAMLException | IllegalArgumentException e) {
            // IllegalArgumentException: SnakeYAML's Tag refuses a tag whose %-escapes stand for a space at its start or
            // end (`!a%20 x`), and the composer lets that out as it is.
            Mark mark = events.lastMark();
            diagnostics.add(Diagnostic.error(mark != null ? at(path, text, mark) : SourceLocation.file(path), "invalid YAML: "
                    + (e instanceof IllegalArgumentException ? "a tag may not start or end with a space, %-escaped or not; fix or remove the tag"
                            : Excerpt.words(e.getMessage()))));
        }
    }

    static SourceLocation at(String path, Mark mark) {
        return new SourceLocation(path, mark.getLine() + 1, mark.getColumn() + 1);
    }

    /**
     * The place of an error, counted in {@code text} from the mark's code point index rather than taken from the mark.
     * SnakeYAML's line and column can be past the end of a line: a carriage return that ends the file counts as a
     * column, not a line break, and so does the carriage return of a CRLF before its line feed.
     */
    private static SourceLocation at(String path, String text, Mark mark) {
        return at(path, text, mark.getIndex());
    }

    /**
     * The place of the code point at {@code index}, counting lines and columns as an editor does: {@code \n},
     * {@code \r\n}, {@code \r}, NEL, LS and PS each end a line, and a byte order mark takes no column.
     */
    private static SourceLocation at(String path, String text, int index) {
        int line = 1;
        int column = 1;
        int seen = 0;
        for (int i = 0; i < text.length() && seen < index; seen++) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            boolean crlf = c == '\r' && i < text.length() && text.charAt(i) == '\n';
            if (c == '\n' || c == 0x85 || c == 0x2028 || c == 0x2029 || (c == '\r' && !crlf)) {
                line++;
                column = 1;
            } else if (c != 0xFEFF && !crlf) {
                column++;
            }
        }
        return new SourceLocation(path, line, column);
    }

    private static boolean isEmptyDocument(Node node) {
        return node instanceof ScalarNode s && s.getValue().isEmpty();
    }

    private static void checkDuplicateKeys(String path, Node node, List<Diagnostic> out) {
        if (node instanceof MappingNode m) {
            Map<String, Node> seen = new HashMap<>();
            for (NodeTuple t : m.getValue()) {
                if (t.getKeyNode() instanceof ScalarNode k) {
                    Node first = seen.putIfAbsent(k.getValue(), k);
                    if (first != null) {
                        out.add(Diagnostic.error(at(path, k.getStartMark()), "duplicate key " + Excerpt.quoted(k.getValue()) + " (first at line " + (first.getStartMark().getLine() + 1) + "); keep only one"));
                    }
                }
                checkDuplicateKeys(path, t.getValueNode(), out);
            }
        } else if (node instanceof SequenceNode s) {
            for (Node child : s.getValue()) checkDuplicateKeys(path, child, out);
        }
    }

    /** Turns a composed node into plain Java values with the safe constructor (no arbitrary types). */
    static final class Values extends SafeConstructor {
        Values(LoaderOptions options) {
            super(options);
            // Timestamps stay strings, as they do when Kubernetes reads YAML into JSON.
            this.yamlConstructors.put(org.yaml.snakeyaml.nodes.Tag.TIMESTAMP, new ConstructYamlStr());
        }

        Object of(Node node) { return freeze(constructDocument(node)); }

        /** A value that cannot be what its tag says ({@code !!binary} that is not base64, {@code !!map} on a scalar...). */
        @Override protected Object constructObject(Node node) {
            try {
                return super.constructObject(node);
            } catch (ClassCastException | IllegalArgumentException e) {
                throw new BadValue(node);
            }
        }

        static final class BadValue extends MarkedYAMLException {
            BadValue(Node node) {
                super(null, null, "this value cannot be read as " + node.getTag().getValue() + "; fix the value or remove its tag", node.getStartMark());
            }
        }

        /** Deep, unmodifiable copy with string keys (JSON objects only have string keys), small objects held compactly. */
        static Object freeze(Object v) {
            if (v instanceof Map<?, ?> m) return dev.windlass.policy.model.FrozenMap.copyOf(m, Values::freeze);
            if (v instanceof java.util.Collection<?> c) {
                List<Object> out = new ArrayList<>(c.size());
                for (Object x : c) out.add(freeze(x));
                return java.util.Collections.unmodifiableList(out);
            }
            return v;
        }
    }
}
