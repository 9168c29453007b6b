package dev.windlass.policy.model;

/**
 * One problem found in the config repo: where, what is wrong, and how to fix it.
 * Rendered as {@code path:line:col: message}, the form editors and CI logs link to.
 */
public record Diagnostic(Severity severity, SourceLocation location, String message) implements Comparable<Diagnostic> {

    public enum Severity { ERROR, WARNING }

    public static Diagnostic error(SourceLocation at, String message) { return new Diagnostic(Severity.ERROR, at, message); }

    public static Diagnostic warning(SourceLocation at, String message) { return new Diagnostic(Severity.WARNING, at, message); }

    public boolean isError() { return severity == Severity.ERROR; }

    @Override public String toString() {
        return location + ": " + (severity == Severity.WARNING ? "warning: " : "") + message;
    }

    @Override public int compareTo(Diagnostic o) {
        int c = location.compareTo(o.location);
        return c != 0 ? c : message.compareTo(o.message);
    }
}
