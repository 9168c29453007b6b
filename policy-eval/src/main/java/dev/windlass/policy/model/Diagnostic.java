package dev.windlass.policy.model;

/**
 * One problem found in the config repo: where, what is wrong, and how to fix it.
 * Rendered as {@code path:line:col: message}, the form editors and CI logs link to.
 */
public record Diagnostic(Severity severity, SourceLocation location, String message, Cause cause) implements Comparable<Diagnostic> {

    public enum Severity { ERROR, WARNING }

    /**
     * What kind of problem it is, for a caller that decides by it (never by the message): most are in what the repo
     * says; {@link #RENDER} is an application that could not be rendered where it was read (a chart that could not be
     * fetched, a tool that failed).
     */
    public enum Cause { INPUT, RENDER }

    public Diagnostic(Severity severity, SourceLocation location, String message) { this(severity, location, message, Cause.INPUT); }

    public static Diagnostic error(SourceLocation at, String message) { return new Diagnostic(Severity.ERROR, at, message); }

    /** An application that could not be rendered where it was read. */
    public static Diagnostic renderFailed(SourceLocation at, String message) { return new Diagnostic(Severity.ERROR, at, message, Cause.RENDER); }

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
