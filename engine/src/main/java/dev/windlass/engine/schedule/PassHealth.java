package dev.windlass.engine.schedule;

import dev.windlass.engine.http.ProbeAnswer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What {@code /healthz} (liveness) and {@code /readyz} (readiness) answer, from when passes started, finished and
 * succeeded. Live: the pass loop has started or finished a pass within its limit (three intervals, at least
 * {@link #MIN_STUCK}), so a loop wedged in one pass, or one that stopped scheduling, is restarted. Ready: a pass
 * finished successfully (fetched, planned, executed and recorded) within the readiness window, three intervals unless
 * configured; a replica standing by for the lease is ready once it knows the state of every lease it stands for. The answers say why in a line or two: times, the source commit, and a failure's first line.
 */
public final class PassHealth {
    /** A pass may legitimately run this long (a first sync of a large fleet) before the loop counts as stuck. */
    public static final Duration MIN_STUCK = Duration.ofMinutes(10);
    private static final int MAX_REASON = 300;

    private final Clock clock;
    private final Duration readyWithin;
    private final Instant since;
    private Instant started;       // guarded by this
    private Instant finished;      // guarded by this
    private Instant succeeded;     // guarded by this
    private String success = "";   // guarded by this
    private Instant failed;        // guarded by this
    private String failure = "";   // guarded by this
    private boolean inFlight;      // guarded by this
    private boolean lastFailed;    // guarded by this
    private boolean stopping;      // guarded by this
    private String standBy;        // guarded by this; why the last pass did not run (no lease), else null
    private Supplier<Optional<String>> unknown = Optional::empty;   // guarded by this

    /** @param readyWithin how recent the last successful pass must be to be ready; null: three poll intervals */
    public PassHealth(Clock clock, Duration readyWithin) {
        this.clock = clock;
        this.readyWithin = readyWithin;
        this.since = clock.instant();
    }

    synchronized void passStarted() {
        started = clock.instant();
        inFlight = true;
    }

    synchronized void passSucceeded(String summary) {
        finished = succeeded = clock.instant();
        success = summary;
        inFlight = lastFailed = false;
        standBy = null;
    }

    /**
     * A replica without the lease ran no pass: its loop moves, and it is ready (to take over, and for a rolling
     * update to go on); the answers say why it did nothing.
     */
    synchronized void standingBy(String why) {
        finished = clock.instant();
        standBy = oneLine(why);
        inFlight = lastFailed = false;
    }

    synchronized void passFailed(String reason) {
        finished = failed = clock.instant();
        failure = oneLine(reason);
        inFlight = false;
        lastFailed = true;
        standBy = null;
    }

    /** Not ready while {@code unknown} says why: the state of a lease this replica stands for is not known yet. */
    synchronized void readyOnlyWhen(Supplier<Optional<String>> unknown) { this.unknown = unknown; }

    /** From now on not ready: the engine is shutting down and takes no more webhooks. */
    synchronized void stopping() { stopping = true; }

    /** Liveness, for a loop that polls every {@code interval}. */
    public synchronized ProbeAnswer liveness(Duration interval) {
        Instant now = clock.instant();
        Duration limit = max(interval.multipliedBy(3), MIN_STUCK);
        Instant lastMove = latest(since, latest(started, finished));
        String state = inFlight ? "pass in flight since " + started : "last pass: " + last();
        if (Duration.between(lastMove, now).compareTo(limit) > 0) {
            return new ProbeAnswer(false, "stuck: no pass started or finished for " + age(lastMove, now) + " (limit " + limit.toSeconds()
                    + "s)\n" + state);
        }
        return new ProbeAnswer(true, "ok\n" + state);
    }

    /** Readiness, for a loop that polls every {@code interval}. */
    public synchronized ProbeAnswer readiness(Duration interval) {
        Instant now = clock.instant();
        Duration window = readyWithin != null ? readyWithin : interval.multipliedBy(3);
        String lastFailure = lastFailed ? "\nlast pass failed at " + failed + ": " + failure : "";
        if (stopping) return new ProbeAnswer(false, "not ready: shutting down");
        Optional<String> leases = unknown.get();
        if (leases.isPresent()) return new ProbeAnswer(false, "not ready: " + leases.get());
        if (standBy != null) return new ProbeAnswer(true, "ready, standing by: " + standBy);
        if (succeeded == null) {
            return new ProbeAnswer(false, "not ready: no pass has succeeded yet (running since " + since + ")" + lastFailure);
        }
        if (Duration.between(succeeded, now).compareTo(window) > 0) {
            return new ProbeAnswer(false, "not ready: the last successful pass finished " + age(succeeded, now) + " ago, more than "
                    + window.toSeconds() + "s" + lastFailure);
        }
        return new ProbeAnswer(true, "ready\nlast successful pass: " + succeeded + " " + success + lastFailure);
    }

    private String last() {
        if (finished == null) return "none yet";
        if (standBy != null) return finished + " " + standBy;
        return lastFailed ? finished + " failed: " + failure : finished + " " + success;
    }

    /** The first line of a failure, short, with any user:password@ in a URL left out. */
    static String oneLine(String reason) {
        String line = reason == null ? "unknown error" : reason.strip().lines().findFirst().orElse("unknown error");
        line = line.replaceAll("//[^/@\\s]+@", "//");
        return line.length() > MAX_REASON ? line.substring(0, MAX_REASON) + "..." : line;
    }

    private static String age(Instant from, Instant now) { return Duration.between(from, now).toSeconds() + "s"; }

    private static Instant latest(Instant a, Instant b) {
        if (a == null) return b;
        if (b == null) return a;
        return a.isAfter(b) ? a : b;
    }

    private static Duration max(Duration a, Duration b) { return a.compareTo(b) >= 0 ? a : b; }
}
