package dev.windlass.policy.parse;

import java.util.BitSet;
import org.yaml.snakeyaml.reader.StreamReader;

/**
 * The text of a file as SnakeYAML's scanner reads it, except that a tab after something on its line looks like a
 * space to the scanner, as it does to the YAML reader of Kubernetes (go-yaml): {@code key: "value"<TAB>},
 * {@code list: [a]<TAB>}, {@code key:<TAB>value}. SnakeYAML alone refuses a tab there ("cannot start any token").
 * <p>
 * Only the scanner's decisions see the space: the text of every scalar is taken from the file as written, so a tab
 * inside a value stays a tab. A tab in a line's indentation is still refused, as go-yaml refuses it, and so is a tab
 * right after a backslash, where inside a double-quoted string it is an escape.
 */
final class TabTolerantReader extends StreamReader {
    /** Code point indexes of the tabs that read as spaces. */
    private final BitSet spaces;

    TabTolerantReader(String text) {
        super(text);
        this.spaces = tabsAfterContent(text);
    }

    @Override public int peek() { return asSeen(super.peek(), 0); }

    @Override public int peek(int index) { return asSeen(super.peek(index), index); }

    private int asSeen(int c, int offset) {
        return c == '\t' && spaces.get(getIndex() + offset) ? ' ' : c;
    }

    /** The tabs with something other than spaces and tabs before them on their line, and no backslash right before. */
    static BitSet tabsAfterContent(String text) {
        BitSet found = new BitSet();
        boolean content = false;
        int previous = 0;
        int index = 0;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            if (c == '\n' || c == '\r' || c == 0x85 || c == 0x2028 || c == 0x2029) {
                content = false;
            } else if (c == '\t') {
                if (content && previous != '\\') found.set(index);
            } else if (c != ' ' && c != 0xFEFF) {
                content = true;
            }
            previous = c;
            i += Character.charCount(c);
            index++;
        }
        return found;
    }
}
