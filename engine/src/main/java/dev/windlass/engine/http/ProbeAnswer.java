package dev.windlass.engine.http;

/** An answer to {@code /healthz} or {@code /readyz}: 200 or 503, and a short plain-text body saying why. */
public record ProbeAnswer(boolean ok, String text) {
    public int status() { return ok ? 200 : 503; }
}
