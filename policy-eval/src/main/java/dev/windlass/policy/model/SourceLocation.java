package dev.windlass.policy.model;

/** A place in the config repo, 1-based like editors show it. */
public record SourceLocation(String path, int line, int column) implements Comparable<SourceLocation> {

    public static SourceLocation file(String path) { return new SourceLocation(path, 1, 1); }

    @Override public String toString() { return path + ":" + line + ":" + column; }

    @Override public int compareTo(SourceLocation o) {
        int c = path.compareTo(o.path);
        if (c != 0) return c;
        c = Integer.compare(line, o.line);
        return c != 0 ? c : Integer.compare(column, o.column);
    }
}
