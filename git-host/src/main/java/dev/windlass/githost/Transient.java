package dev.windlass.githost;

import java.io.IOException;
import java.time.Instant;

/** One try failed in a way that another try may fix: a 5xx answer, no answer, or a rate limit. */
final class Transient extends Exception {

    final String method;
    final String path;
    /** The HTTP status, or 0 when there was no answer. */
    final int status;
    /** Why there was no answer (for status 0). */
    final String cause;
    /** When the rate limit lifts, or null when this is not a rate limit. */
    final Instant rateLimitedUntil;

    private Transient(String method, String path, int status, String cause, Instant rateLimitedUntil) {
        super(method + " " + path + " -> " + status, null, false, false);
        this.method = method;
        this.path = path;
        this.status = status;
        this.cause = cause;
        this.rateLimitedUntil = rateLimitedUntil;
    }

    static Transient serverError(String method, String path, int status) {
        return new Transient(method, path, status, null, null);
    }

    static Transient unreachable(String method, String path, IOException e) {
        String why = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        return new Transient(method, path, 0, why, null);
    }

    static Transient rateLimited(String method, String path, int status, Instant until) {
        return new Transient(method, path, status, null, until);
    }

    String describe() {
        return status == 0 ? "no answer (" + cause + ")" : "answered " + status;
    }
}
