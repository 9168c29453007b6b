package dev.windlass.policy.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** When failed writes are tried again: doubling waits, capped, and at once for other writes. */
class RetryTest {
    static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");

    @Test
    void aLastingFailureWaitsTenSecondsThenTwiceAsLongUpToFiveMinutes() {
        Retry r = null;
        long[] waits = new long[8];
        for (int i = 0; i < waits.length; i++) {
            r = Retry.after(r, Retry.Kind.Lasting, "same", T0);
            waits[i] = Duration.between(T0, r.next()).toSeconds();
        }
        assertEquals("[10, 20, 40, 80, 160, 300, 300, 300]", java.util.Arrays.toString(waits));
        assertEquals(8, r.failures());
    }

    @Test
    void aTransientFailureWaitsFiveSecondsDoublingUpToAMinute() {
        Retry r = null;
        for (int i = 0; i < 5; i++) r = Retry.after(r, Retry.Kind.Transient, "same", T0);
        assertEquals(Duration.ofMinutes(1), Duration.between(T0, r.next()), "5, 10, 20, 40, then capped at 60 s");
    }

    @Test
    void otherWritesAreTriedAtOnceAndStartCountingAgain() {
        Retry r = Retry.after(Retry.after(null, Retry.Kind.Lasting, "a", T0), Retry.Kind.Lasting, "a", T0);
        assertTrue(r.holds("a", T0.plusSeconds(19)));
        assertFalse(r.holds("a", T0.plusSeconds(20)), "its time has come");
        assertFalse(r.holds("b", T0.plusSeconds(1)), "other writes (a new commit, a cluster that now serves the kind) go at once");
        assertEquals(1, Retry.after(r, Retry.Kind.Lasting, "b", T0).failures());
    }
}
