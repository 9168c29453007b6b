package dev.windlass.dashboard;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The optional token the dashboard asks for: sent as {@code Authorization: Bearer <token>} (scripts, a reverse proxy
 * that authenticates people), or once as {@code ?token=<token>} by a browser, which then keeps it in an HttpOnly cookie.
 */
public record BearerToken(String value) {
    public static final String COOKIE = "windlass_dashboard";

    public BearerToken {
        if (value != null && value.isBlank()) value = null;
        if (value != null) value = value.strip();
    }

    public boolean required() { return value != null; }

    /** True when {@code presented} is the token (compared in constant time). */
    public boolean accepts(String presented) {
        if (value == null) return true;
        if (presented == null) return false;
        return MessageDigest.isEqual(value.getBytes(StandardCharsets.UTF_8), presented.strip().getBytes(StandardCharsets.UTF_8));
    }

    @Override public String toString() { return value == null ? "no token" : "a token"; }
}
