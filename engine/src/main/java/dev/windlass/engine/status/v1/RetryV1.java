package dev.windlass.engine.status.v1;

import dev.windlass.policy.state.Retry;
import java.time.Instant;

/** Writes to a cluster that failed, and when they are tried again ({@code targets[].retry}). */
public record RetryV1(int failures, Instant next, String kind, String input) {
    static RetryV1 of(Retry r) { return r == null ? null : new RetryV1(r.failures(), r.next(), Words.of(r.kind()), r.input()); }

    Retry toDomain() {
        if (next == null || input == null || kind == null || failures < 1) {
            throw new IllegalArgumentException("targets[].retry needs failures (1 or more), next, kind and input");
        }
        return new Retry(failures, next, Words.read(Retry.Kind.class, kind, "targets[].retry.kind"), input);
    }
}
