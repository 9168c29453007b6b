package dev.windlass.policy.state;

import java.time.Duration;
import java.time.Instant;

/**
 * An application's writes to one cluster that failed, and when to try them again: a target whose writes keep failing
 * is not sent the same requests on every pass. A failure that will not change by itself ({@link Kind#Lasting}: a kind
 * the cluster does not serve, an object it refuses) waits 10 s, then twice as long after each failure, up to 5
 * minutes; one that may ({@link Kind#Transient}: a timeout, a 5xx, a 429) 5 s, doubling up to a minute. A change to
 * what is tried ({@code input}: the writes, or what the cluster serves) is tried at once.
 *
 * @param failures how many passes in a row tried these writes and failed
 * @param next     not tried again before this
 * @param input    what was tried: the writes and the cluster's served API versions, as a digest
 */
public record Retry(int failures, Instant next, Kind kind, String input) {

    /** Whether a failure may go away by itself. */
    public enum Kind { Lasting, Transient }

    static final Duration LASTING_FIRST = Duration.ofSeconds(10);
    static final Duration LASTING_MAX = Duration.ofMinutes(5);
    static final Duration TRANSIENT_FIRST = Duration.ofSeconds(5);
    static final Duration TRANSIENT_MAX = Duration.ofMinutes(1);

    /** The retry after a pass at {@code now} whose writes {@code input} failed, following {@code previous} (or null). */
    public static Retry after(Retry previous, Kind kind, String input, Instant now) {
        int failures = previous != null && previous.input().equals(input) ? previous.failures() + 1 : 1;
        Duration first = kind == Kind.Lasting ? LASTING_FIRST : TRANSIENT_FIRST;
        Duration max = kind == Kind.Lasting ? LASTING_MAX : TRANSIENT_MAX;
        Duration wait = first.multipliedBy(1L << Math.min(failures - 1, 16));
        return new Retry(failures, now.plus(wait.compareTo(max) > 0 ? max : wait), kind, input);
    }

    /** Whether writes {@code input} wait at {@code now}: the same ones that failed, and their time has not come. */
    public boolean holds(String input, Instant now) {
        return this.input.equals(input) && now.isBefore(next);
    }
}
