package dev.windlass.policy.parse;

import java.util.regex.Pattern;

/**
 * Glob patterns as Argo CD matches {@code directory.include} and {@code exclude}: {@code *} any text ('/' too),
 * {@code ?} one character, {@code [abc]} one of a set, {@code {a,b}} either; everything else is itself.
 */
final class Globs {
    private Globs() {}

    static boolean matches(String glob, String text) {
        return Pattern.compile(regex(glob)).matcher(text).matches();
    }

    /** The pattern as a regular expression, or null when it is not a valid glob (a '[' or '{' not closed). */
    static String regex(String glob) {
        StringBuilder r = new StringBuilder();
        int braces = 0;
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            switch (c) {
                case '*' -> r.append(".*");
                case '?' -> r.append('.');
                case '{' -> { r.append("(?:"); braces++; }
                case '}' -> {
                    if (braces == 0) r.append("\\}");
                    else { r.append(')'); braces--; }
                }
                case ',' -> r.append(braces > 0 ? "|" : ",");
                case '[' -> {
                    int end = glob.indexOf(']', i + 1);
                    if (end < 0) return null;
                    String set = glob.substring(i + 1, end);
                    r.append('[').append(set.startsWith("!") ? "^" + set.substring(1) : set).append(']');
                    i = end;
                }
                case '\\' -> {
                    if (i + 1 < glob.length()) r.append(Pattern.quote(String.valueOf(glob.charAt(++i))));
                }
                default -> r.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return braces == 0 ? r.toString() : null;
    }
}
