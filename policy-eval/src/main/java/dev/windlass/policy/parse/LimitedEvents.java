package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;
import static dev.windlass.policy.parse.YamlLimits.MAX_COLLECTION_ALIASES;
import static dev.windlass.policy.parse.YamlLimits.MAX_DEPTH;
import static dev.windlass.policy.parse.YamlLimits.MAX_DOCUMENT_CHARS;
import static dev.windlass.policy.parse.YamlLimits.MAX_NODES;
import static dev.windlass.policy.parse.YamlLimits.MAX_SCALAR_CHARS;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.parser.Parser;

/**
 * The parser events of one file on their way to SnakeYAML's composer, counted as they pass: nodes, scalar text and
 * depth, each alias counted as the value it stands for. The first event over a {@link YamlLimits limit} stops the
 * composer with {@link Exceeded} at that event's place, so nothing is ever built past a limit, and an alias inside the
 * value it names (which no JSON value can hold) is refused where it is written. SnakeYAML's own limits (aliases of
 * collections, nesting, code points) stay set as a backstop; the same counts here come first and say where.
 */
final class LimitedEvents implements Parser {

    /** A limit crossed, at the place that crossed it. */
    static final class Exceeded extends YAMLException {
        final transient Mark mark;

        Exceeded(Mark mark, String message) {
            super(message);
            this.mark = mark;
        }
    }

    /** What a node stands for, aliases written out; open while its events are still coming. */
    private static final class Value {
        final boolean collection;
        long nodes = 1;
        long chars;
        int depth = 1;
        boolean open;

        Value(boolean collection) { this.collection = collection; }

        void include(Value child) {
            nodes += child.nodes;
            chars += child.chars;
            depth = Math.max(depth, child.depth + 1);
        }
    }

    private final Parser parser;
    private final Map<String, Value> anchors = new HashMap<>();
    private final Deque<Value> open = new ArrayDeque<>();
    private Event seen;
    private long fileNodes;
    private long documentChars;
    private int collectionAliases;

    LimitedEvents(Parser parser) { this.parser = parser; }

    @Override public boolean checkEvent(Event.ID choice) {
        observeNext();
        return parser.checkEvent(choice);
    }

    @Override public Event peekEvent() {
        observeNext();
        return parser.peekEvent();
    }

    @Override public Event getEvent() {
        observeNext();
        return parser.getEvent();
    }

    /** Where the last event looked at starts: the place of a problem the composer reports without one. */
    Mark lastMark() { return seen == null ? null : seen.getStartMark(); }

    /** Counts each event once, when it is first looked at, so a limit is found before the composer acts on it. */
    private void observeNext() {
        Event next = parser.peekEvent();
        if (next == null || next == seen) return;
        seen = next;
        if (next.is(Event.ID.DocumentStart)) startDocument();
        else if (next instanceof ScalarEvent s) scalar(s);
        else if (next instanceof CollectionStartEvent c) startCollection(c);
        else if (next.is(Event.ID.SequenceEnd) || next.is(Event.ID.MappingEnd)) endCollection();
        else if (next instanceof AliasEvent a) alias(a);
    }

    private void startDocument() {
        anchors.clear();
        open.clear();
        documentChars = 0;
    }

    private void scalar(ScalarEvent e) {
        int length = e.getValue().length();
        if (length > MAX_SCALAR_CHARS) {
            throw new Exceeded(e.getStartMark(), "this scalar has " + length + " characters, over the limit of " + MAX_SCALAR_CHARS
                    + "; keep data this large out of the config repo");
        }
        Value v = new Value(false);
        v.chars = length;
        add(e, null, v);
        include(v);
        if (e.getAnchor() != null) anchors.put(e.getAnchor(), v);
    }

    private void startCollection(CollectionStartEvent e) {
        Value v = new Value(true);
        add(e, null, v);
        v.open = true;
        if (e.getAnchor() != null) anchors.put(e.getAnchor(), v);
        open.push(v);
    }

    private void endCollection() {
        if (open.isEmpty()) return;  // the parser reports the stray end
        Value v = open.pop();
        v.open = false;
        include(v);
    }

    /** Counts a finished value into the collection it is in. */
    private void include(Value v) {
        if (!open.isEmpty()) open.peek().include(v);
    }

    private void alias(AliasEvent e) {
        Value v = anchors.get(e.getAnchor());
        if (v == null) return;  // the composer reports the undefined alias
        String name = "alias *" + Excerpt.of(e.getAnchor());
        if (v.open) {
            throw new Exceeded(e.getStartMark(), name + " is used inside the value it names (a recursive alias); "
                    + "a Kubernetes object cannot contain itself, so write the value out");
        }
        if (v.collection && ++collectionAliases > MAX_COLLECTION_ALIASES) {
            throw new Exceeded(e.getStartMark(), name + " is alias " + collectionAliases + " of a list or mapping in this file, over the limit of "
                    + MAX_COLLECTION_ALIASES + "; write the values out");
        }
        add(e, name, v);
        include(v);
    }

    /** Adds a value where event {@code e} puts it; {@code alias} names the alias it comes through, or is null. */
    private void add(Event e, String alias, Value v) {
        if (open.size() + v.depth > MAX_DEPTH) {
            throw new Exceeded(e.getStartMark(), alias == null
                    ? "nesting deeper than " + MAX_DEPTH + " levels; flatten the structure"
                    : alias + " nests its value deeper than " + MAX_DEPTH + " levels here; flatten the structure or write it out");
        }
        fileNodes += v.nodes;
        if (fileNodes > MAX_NODES) {
            throw new Exceeded(e.getStartMark(), alias == null
                    ? "this file has more than " + MAX_NODES + " nodes (keys, values and list items); split it into smaller files"
                    : alias + " brings this file past " + MAX_NODES + " nodes, aliases written out; use fewer aliases of large values");
        }
        documentChars += v.chars;
        if (documentChars > MAX_DOCUMENT_CHARS) {
            throw new Exceeded(e.getStartMark(), alias == null
                    ? "this document has more than " + MAX_DOCUMENT_CHARS + " characters of text; split it into smaller documents"
                    : alias + " brings this document past " + MAX_DOCUMENT_CHARS + " characters of text, aliases written out; "
                            + "use fewer aliases of large values");
        }
    }
}
