package dev.windlass.policy.plan;

/**
 * The outcome of one action, as data.
 *
 * @param transientFailure for {@link Outcome#Failed}: true when retrying later may succeed
 *                         (timeout, unreachable, 5xx), false when the object itself is rejected
 */
public record ActionResult(Action action, Outcome outcome, String message, boolean transientFailure, HookResult hook) {

    public ActionResult(Action action, Outcome outcome, String message, boolean transientFailure) {
        this(action, outcome, message, transientFailure, null);
    }

    /** What running a hook (or holding an action behind one) came to. */
    public static ActionResult ofHook(Action a, HookResult hook, String message) {
        return new ActionResult(a, hook.outcome(), message, false, hook);
    }

    public static ActionResult ok(Action a, Outcome o, String message) { return new ActionResult(a, o, message, false); }

    public static ActionResult failed(Action a, String message, boolean transientFailure) {
        return new ActionResult(a, Outcome.Failed, message, transientFailure);
    }

    public boolean succeeded() { return outcome != Outcome.Failed; }
}
