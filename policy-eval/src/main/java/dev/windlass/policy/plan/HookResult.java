package dev.windlass.policy.plan;

/**
 * What came of a resource hook's action, or of an action the hooks of its application decided on ({@link HookGate}).
 * Decisions and the status read these, never the result's message.
 */
public enum HookResult {
    /** The hook ran and succeeded: a Job completed, a Pod succeeded, any other kind was applied. */
    Succeeded(Outcome.Created),
    /** The hook's Job failed (its {@code Failed} condition). */
    JobFailed(Outcome.Failed),
    /** The hook's Pod failed (phase {@code Failed}). */
    PodFailed(Outcome.Failed),
    /** The hook did not finish in the time a hook is given. */
    TimedOut(Outcome.Failed),
    /** The cluster refused to create the hook object (or to delete the one before it). */
    NotCreated(Outcome.Failed),
    /** The cluster did not answer (or was busy) while the hook was created or read: a later sync may succeed. */
    Unanswered(Outcome.Failed),
    /** A PostSync hook: the application's objects did not become healthy in the time given, so it did not run. */
    NotHealthy(Outcome.Failed),
    /** Not written: a hook or object of the same application failed before it in this sync. */
    HeldByFailure(Outcome.Skipped),
    /** A SyncFail hook in a sync that did not fail: not run. */
    NoFailure(Outcome.Skipped);

    private final Outcome outcome;

    HookResult(Outcome outcome) { this.outcome = outcome; }

    public Outcome outcome() { return outcome; }

    public boolean failed() { return outcome == Outcome.Failed; }
}
