package dev.windlass.dashboard;

import dev.windlass.policy.model.Diagnostic;

/** A validation problem as shown: {@code path:line:col}, what is wrong, and the file on the Git host when configured. */
public record Problem(String severity, String at, String message, String link) {

    public boolean error() { return severity.equals("error"); }

    static Problem of(Diagnostic d, String commit, GitLinks links) {
        String path = d.location() == null ? null : d.location().path();
        int line = d.location() == null ? 0 : d.location().line();
        return new Problem(d.isError() ? "error" : "warning", d.location() == null ? "" : d.location().toString(), d.message(),
                links.file(commit, path, line));
    }
}
