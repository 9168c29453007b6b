package dev.windlass.policy.text;

/**
 * What an error may quote of a file: a short excerpt, never the file's contents at length (a value could be a
 * Secret's, and errors end up in status files, commit messages and pull request comments).
 */
public final class Excerpt {
    /** The most characters of a file an error quotes in one piece. */
    public static final int MAX_CHARS = 40;

    private Excerpt() {}

    /** {@code text} in single quotes, cut as {@link #of} cuts it: how an error names a value read from a file. */
    public static String quoted(Object text) { return "'" + of(String.valueOf(text)) + "'"; }

    /** {@code text} when short, else its first characters and an ellipsis. */
    public static String of(String text) {
        if (text.length() <= MAX_CHARS) return text;
        int end = Character.isHighSurrogate(text.charAt(MAX_CHARS - 1)) ? MAX_CHARS - 2 : MAX_CHARS - 1;
        return text.substring(0, end) + "…";
    }

    /**
     * A library's message on one line, every word of it cut to an excerpt: what SnakeYAML quotes of a file is one
     * token (an anchor, a tag, a few characters), and a token has no spaces.
     */
    public static String words(String message) {
        if (message == null) return "";
        StringBuilder out = new StringBuilder();
        for (String word : message.trim().split("\\s+")) {
            if (word.isEmpty()) continue;
            if (out.length() > 0) out.append(' ');
            out.append(of(word));
        }
        return out.toString();
    }
}
