package dev.windlass.git;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How often a writer re-applies its change after another writer moved the branch first. Delays double per lost race
 * and are jittered, so writers that collided once do not collide again in lockstep.
 */
public record RetryPolicy(int maxAttempts, Duration baseDelay, Duration maxDelay) {

    public static final RetryPolicy DEFAULT = new RetryPolicy(16, Duration.ofMillis(25), Duration.ofSeconds(1));

    public RetryPolicy {
        if (maxAttempts < 1) throw new IllegalArgumentException("maxAttempts must be at least 1");
        if (baseDelay.isNegative() || maxDelay.compareTo(baseDelay) < 0) {
            throw new IllegalArgumentException("need 0 <= baseDelay <= maxDelay");
        }
    }

    /** The pause after losing race number {@code lost} (1-based): random between half and all of the capped backoff. */
    Duration delayAfter(int lost) {
        long cap = baseDelay.toMillis() << Math.min(lost - 1, 20);
        long millis = Math.min(cap, maxDelay.toMillis());
        return Duration.ofMillis(millis / 2 + ThreadLocalRandom.current().nextLong(millis / 2 + 1));
    }
}
